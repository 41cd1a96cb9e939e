// The samples behind a search, as a flame graph per JVM: what its threads were doing on the CPU, where they waited
// (sleeping, waiting, parked, blocked; by the time waited), blocked on a lock, blocked in I/O, or allocating (the
// daemon's stacks, which follow the last minute or so). Read again every 10 s while the search runs, and kept with
// the search when it ends; clicking a frame proposes its method as a focus, with a button that plots the graph's
// metric there live (POST /api/plots, as the Resources page does). A finding's flame graph is the same view kept to
// the stacks through the finding's code (the stacks' `through`).
import { get, q } from './api.js';
import { flameGraph } from './flame.js';
import { plotPanel } from './plots.js';
import { h, messageLine } from './ui.js';

export const GRAPHS = [['cpu', 'on the CPU'], ['wait', 'waiting (wall clock)'], ['sync', 'blocked on locks'],
  ['io', 'blocked in I/O'], ['alloc', 'allocating']];
/** The graphs a live JVM has beside those a search keeps, offered when a finding's flame graph is one of them. */
const LIVE_ONLY = { jit: 'compiled by the JIT', load: 'defining classes' };

/** The metric that measures at a method what each graph samples, and its words on the button. */
const METRICS = {
  cpu: ['cpu_inclusive', 'plot CPU here'], wait: ['wait_time', 'plot waiting here'], sync: ['sync_wait', 'plot lock waiting here'],
  io: ['io_wait', 'plot I/O blocking here'], alloc: ['alloc_sampled_bytes', 'plot allocation here'],
};

/**
 * The samples card of search {@code searchId}: while it runs, its JVMs' stacks as they are now (refreshed); once it
 * has ended, those it kept as it ended.
 */
export function samplesPanel({ live, searchId } = {}) {
  const graph = h('select', { name: 'samples-graph' }, GRAPHS.map(([v, label]) => h('option', { value: v }, label)));
  const jvm = h('select', { name: 'samples-jvm' });
  const message = messageLine();
  const picked = h('div', { class: 'flame-picked muted' });
  const box = h('div', { class: 'flame-box' });
  const plots = h('div', { class: 'plots' });
  const plotter = plotPanel(plots);
  /** A finding's flame graph shown ({graph, through, text}), or null: every stack. */
  let finding = null;
  const whole = h('button', { type: 'button', class: 'show-all-stacks', hidden: true, onclick: () => {
    showing(null);
    load();
  } }, 'all stacks');
  const element = h('section', { class: 'card samples', dataset: { loaded: 'false' } },
    h('h2', {}, 'Samples'),
    h('div', { class: 'toolbar' }, h('label', {}, 'threads ', graph), h('label', {}, 'JVM ', jvm),
      h('button', { type: 'button', class: 'refresh', onclick: () => load() }, 'refresh'), whole),
    message, box, picked, plots);
  const flame = flameGraph(box, {
    onPick: method => {
      const [metric, words] = METRICS[graph.value] || METRICS.cpu;
      const focus = [method];
      picked.replaceChildren(h('code', { class: 'picked-focus' }, `<${method}>`), ' ',
        h('button', { type: 'button', class: 'plot-here', dataset: { metric },
          title: `${metric} on this method in JVM ${jvm.value}, live (the JVM must still run)`,
          onclick: () => plotter.add(jvm.value, metric, focus).then(() => message.show(null), e => message.show(e.message)) }, words),
        ' (zoomed; click the bottom frame to zoom out)');
    },
  });
  let timer = null;
  let running = !!live;
  let asked = 0;

  /** Reads the samples; a search that has just ended may still be saving its stacks, so a missing one is asked again twice. */
  async function load(retries = running ? 0 : 2) {
    if (running && !jvm.value) return;
    const n = ++asked;
    const through = finding && finding.through ? `&through=${q(finding.through)}` : '';
    try {
      const stacks = await get(running
        ? `/api/jvms/${q(jvm.value)}/stacks?graph=${q(graph.value)}${through}`
        : `/api/searches/${q(searchId)}/stacks?daemon=${q(jvm.value)}&graph=${q(graph.value)}${through}`);
      if (n !== asked) return; // a later read was asked for (another graph, a finding's): its answer counts
      message.show(null);
      flame.set(stacks);
      element.dataset.loaded = 'true';
      element.dataset.samples = String(stacks.samples);
      element.dataset.through = stacks.through || '';
    } catch (e) {
      if (n !== asked) return;
      flame.set(null);
      message.show(e.message, e.status === 404 ? 'info' : 'error');
      if (e.status === 404 && retries > 0) {
        clearTimeout(timer);
        timer = setTimeout(() => load(retries - 1), 3000);
      }
    }
  }

  function schedule() {
    clearTimeout(timer);
    if (running) timer = setTimeout(() => load().finally(schedule), 10000);
  }

  /** Shows a finding's flame graph from now on, or (null) every stack: says which, and marks a finding's method. */
  function showing(f) {
    finding = f;
    flame.describe(f ? f.text : null);
    flame.highlight(f && f.through && f.through.split('/').length >= 5 ? f.through : null);
    whole.hidden = !f;
  }

  // another graph or JVM is no longer the finding's flame graph
  graph.addEventListener('change', () => {
    showing(null);
    load();
  });
  jvm.addEventListener('change', () => {
    showing(null);
    load();
  });

  return {
    element,
    /** The search's JVMs are known: fill the choice and draw the first one's samples. */
    setDaemons(daemons) {
      jvm.replaceChildren(...(daemons.length ? daemons.map(d => h('option', { value: d }, d))
        : [h('option', { value: '' }, 'its JVM')]));
      load();
      schedule();
    },
    /**
     * Shows a finding's flame graph ({@code flame} of a finding: its graph, through its code, in words): the
     * stacks of that graph through that code, its method's frames marked.
     */
    showFlame(f) {
      if (![...graph.options].some(o => o.value === f.graph)) {
        graph.append(h('option', { value: f.graph }, LIVE_ONLY[f.graph] || f.graph));
      }
      graph.value = f.graph;
      showing(f);
      load();
      element.scrollIntoView({ block: 'start' });
    },
    /** The search has ended: from now on, the stacks it kept (read once more, as it is saved a moment later). */
    ended() {
      running = false;
      clearTimeout(timer);
      timer = setTimeout(() => load(), 1000);
    },
    close() {
      running = false;
      clearTimeout(timer);
      plotter.removeAll();
    },
  };
}
