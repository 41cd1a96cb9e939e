// The samples behind a search, as a flame graph per JVM: what its threads were doing on the CPU, blocked on a
// lock, or blocked in I/O (the daemon's stacks, which follow the last minute or so). Read again every 10 s
// while the search runs; clicking a frame proposes its method as a focus.
import { get, q } from './api.js';
import { flameGraph } from './flame.js';
import { h, messageLine } from './ui.js';

const GRAPHS = [['cpu', 'on the CPU'], ['sync', 'blocked on locks'], ['io', 'blocked in I/O']];

/** The samples card of a search over {@code daemons}; live: refreshed while the search runs. */
export function samplesPanel({ live } = {}) {
  const graph = h('select', { name: 'samples-graph' }, GRAPHS.map(([v, label]) => h('option', { value: v }, label)));
  const jvm = h('select', { name: 'samples-jvm' });
  const message = messageLine();
  const picked = h('div', { class: 'flame-picked muted' });
  const box = h('div', { class: 'flame-box' });
  const element = h('section', { class: 'card samples', dataset: { loaded: 'false' } },
    h('h2', {}, 'Samples'),
    h('div', { class: 'toolbar' }, h('label', {}, 'threads ', graph), h('label', {}, 'JVM ', jvm),
      h('button', { type: 'button', class: 'refresh', onclick: () => load() }, 'refresh')),
    message, box, picked);
  const flame = flameGraph(box, {
    onPick: method => {
      picked.textContent = `focus: <${method}> (zoomed; click the bottom frame to zoom out)`;
    },
  });
  let timer = null;
  let running = !!live;

  async function load() {
    if (!jvm.value) return;
    try {
      const stacks = await get(`/api/jvms/${q(jvm.value)}/stacks?graph=${q(graph.value)}`);
      message.show(null);
      flame.set(stacks);
      element.dataset.loaded = 'true';
      element.dataset.samples = String(stacks.samples);
    } catch (e) {
      message.show(e.status === 404 || e.status === 503
        ? `${jvm.value}: its daemon is no longer attached, and the samples are kept only while it runs`
        : e.message, e.status === 404 ? 'info' : 'error');
    }
  }

  function schedule() {
    clearTimeout(timer);
    if (running) timer = setTimeout(() => load().finally(schedule), 10000);
  }

  graph.addEventListener('change', () => load());
  jvm.addEventListener('change', () => load());

  return {
    element,
    /** The search's JVMs are known: fill the choice and draw the first one's samples. */
    setDaemons(daemons) {
      jvm.replaceChildren(...daemons.map(d => h('option', { value: d }, d)));
      load();
      schedule();
    },
    /** Shows {@code kind}'s samples with {@code method}'s frames marked (a finding's code). */
    show(kind, method) {
      graph.value = kind;
      flame.highlight(method);
      load();
      element.scrollIntoView({ block: 'start' });
    },
    ended() {
      running = false;
      clearTimeout(timer);
    },
    close() {
      running = false;
      clearTimeout(timer);
    },
  };
}
