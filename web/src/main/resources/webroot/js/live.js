// The one WebSocket of /api/live: topics are subscribed once per page and re-subscribed after a reconnect.

const handlers = new Map();
let socket = null;
let open = false;
let retryMillis = 500;
const statusListeners = new Set();

function url() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/live`;
}

function send(message) {
  if (open) {
    socket.send(JSON.stringify(message));
  }
}

function setOpen(value) {
  open = value;
  statusListeners.forEach(l => l(value));
}

function connect() {
  socket = new WebSocket(url());
  socket.onopen = () => {
    retryMillis = 500;
    setOpen(true);
    for (const topic of handlers.keys()) {
      send({ op: 'subscribe', topic });
    }
  };
  socket.onmessage = message => {
    let data;
    try {
      data = JSON.parse(message.data);
    } catch (e) {
      return;
    }
    const set = handlers.get(data.topic);
    if (set) {
      set.forEach(h => h(data.event, data.error));
    }
  };
  socket.onclose = () => {
    setOpen(false);
    setTimeout(connect, retryMillis);
    retryMillis = Math.min(retryMillis * 2, 10000);
  };
}

/** Calls handler(event, error) for every message on topic; returns the function that unsubscribes. */
export function subscribe(topic, handler) {
  if (!socket) {
    connect();
  }
  let set = handlers.get(topic);
  if (!set) {
    set = new Set();
    handlers.set(topic, set);
    send({ op: 'subscribe', topic });
  }
  set.add(handler);
  return () => {
    set.delete(handler);
    if (set.size === 0 && handlers.get(topic) === set) {
      handlers.delete(topic);
      send({ op: 'unsubscribe', topic });
    }
  };
}

export function onStatus(listener) {
  if (!socket) {
    connect();
  }
  statusListeners.add(listener);
  listener(open);
}
