// REST calls of web/API.md. A failed call throws an Error whose message is the server's "error" text.

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

async function call(method, path, body) {
  const init = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, `the service did not answer ${method} ${path}: ${e.message}`);
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch (e) {
    json = null;
  }
  if (!response.ok) {
    const message = json && json.error ? json.error : `${method} ${path}: HTTP ${response.status}`;
    throw new ApiError(response.status, message, json);
  }
  return json;
}

export const get = path => call('GET', path);
export const post = (path, body) => call('POST', path, body === undefined ? {} : body);
export const del = path => call('DELETE', path);
export const q = encodeURIComponent;
