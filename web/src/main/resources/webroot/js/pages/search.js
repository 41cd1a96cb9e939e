// Search: start a search, stop it, and watch its search-history graph grow live; a node's detail on click.
import { get, post, q } from '../api.js';
import { subscribe } from '../live.js';
import { shgView, shgLegend, svgText } from '../shg.js';
import { nodeDetail } from '../node-detail.js';
import { findingsPanel } from '../findings.js';
import { samplesPanel } from '../samples.js';
import { hypothesisForm } from '../hypothesis-form.js';
import { h, card, messageLine, time, fmt, jvmLabel } from '../ui.js';

export const HYPOTHESES = [
  ['cpu_bound', 'CPU-bound'], ['method_call_overhead', 'method-call overhead'], ['object_creation_overhead', 'object-creation overhead'],
  ['interpreted_time', 'interpretation'], ['jit_compile_time', 'JIT compilation'], ['class_load_time', 'class loading'],
  ['sync_wait', 'sync waiting'], ['io_wait', 'I/O blocking'], ['small_io_ops', 'small I/O operations'],
  ['memory_pressure', 'GC / memory pressure'], ['allocation_share', 'allocation share'],
];

export function render(root, params) {
  if (params[0] && params[0] !== 'new') {
    return searchView(root, params[0], { live: true });
  }
  return startPage(root, params[0] === 'new' ? params[1] : null);
}

function startPage(root, preselected) {
  const message = messageLine();
  const jvmBox = h('div', { class: 'jvm-choices' }, h('span', { class: 'muted' }, 'loading JVMs…'));
  const budget = h('input', { type: 'number', name: 'budget', step: 'any', min: '0.001', max: '0.5', value: '0.05' });
  const maxTime = h('input', { type: 'number', name: 'maxTimeSeconds', min: '1', step: 'any', value: '60' });
  const skip = h('div', { class: 'skip-choices' }, HYPOTHESES.map(([id, label]) =>
    h('label', { title: id }, h('input', { type: 'checkbox', name: 'skip', value: id }), ` ${label}`)));
  const settings = h('textarea', { name: 'settings', rows: '4', cols: '70', placeholder: 'key=value per line, e.g. search.sampling_interval_seconds=0.5' });
  const mine = hypothesisForm(HYPOTHESES);
  const list = h('table', { class: 'search-list' });

  get('/api/jvms').then(answer => {
    const running = answer.jvms.filter(j => j.state !== 'exited');
    jvmBox.replaceChildren(...running.map(j => h('label', { class: 'jvm-choice' },
      h('input', { type: 'checkbox', name: 'daemon', value: j.daemonId, checked: preselected ? j.daemonId === preselected : running.length === 1 }),
      ` ${jvmLabel(j)}`)));
    if (running.length === 0) jvmBox.replaceChildren(h('span', { class: 'muted' }, 'no JVM attached: see the JVMs page'));
  }).catch(e => message.show(e.message));

  async function start(event) {
    event.preventDefault();
    const daemons = [...jvmBox.querySelectorAll('input:checked')].map(i => i.value);
    const body = { daemons, budget: Number(budget.value), maxTimeSeconds: Number(maxTime.value) };
    const skipped = [...skip.querySelectorAll('input:checked')].map(i => i.value);
    if (skipped.length) body.skip = skipped;
    const pairs = {};
    for (const [i, line] of settings.value.split('\n').entries()) {
      if (!line.trim() || line.trim().startsWith('#')) continue;
      const eq = line.indexOf('=');
      if (eq < 1) {
        message.show(`settings line ${i + 1}: expected key=value, got '${line.trim()}'`);
        return;
      }
      pairs[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
    }
    if (daemons.length === 0) {
      message.show('choose at least one JVM');
      return;
    }
    try {
      Object.assign(pairs, await mine.settings());
    } catch (e) {
      message.show(`your hypotheses: ${e.message}`);
      return;
    }
    if (Object.keys(pairs).length) body.settings = pairs;
    try {
      message.show('starting…', 'info');
      const answer = await post('/api/searches', body);
      if (root.isConnected) {
        location.hash = `#/search/${encodeURIComponent(answer.searchId)}`;
      }
    } catch (e) {
      message.show(e.message);
    }
  }

  root.append(card('Start a search',
    h('form', { class: 'search-form', onsubmit: start },
      h('fieldset', {}, h('legend', {}, 'JVMs'), jvmBox),
      h('div', { class: 'row' }, h('label', {}, 'budget (fraction of CPU) ', budget), h('label', {}, 'time limit (s) ', maxTime)),
      h('fieldset', {}, h('legend', {}, 'skip hypotheses'), skip),
      h('details', {}, h('summary', {}, 'settings'), settings),
      mine.element,
      h('button', { type: 'submit', class: 'primary' }, 'start search'), message)),
  card('Searches', list));
  const loadList = () => get('/api/searches').then(answer => {
    list.replaceChildren(h('tr', {}, ['search', 'state', 'started', 'JVMs', 'nodes', 'findings'].map(t => h('th', {}, t))),
      ...answer.searches.slice(0, 20).map(s => h('tr', {},
        h('td', {}, h('a', { href: `#/${s.running ? 'search' : 'history'}/${encodeURIComponent(s.searchId)}` }, s.searchId)),
        h('td', {}, s.running ? 'running' : (s.endReason || 'ended')), h('td', {}, time(s.startedAt)),
        h('td', {}, (s.daemons || []).join(', ')), h('td', {}, s.nodes ?? ''), h('td', {}, s.findings ?? ''))));
  }).catch(e => message.show(e.message));
  loadList();
  const timer = setInterval(loadList, 5000);
  return () => clearInterval(timer);
}

/**
 * One search: its findings on top, then its graph with a detail panel; live: follows the WebSocket (the
 * findings are read again as nodes change, and once more when the search is saved) and can be stopped.
 */
export function searchView(root, searchId, { live, compact } = {}) {
  const message = messageLine();
  const status = h('span', { class: 'search-status' }, live ? 'loading…' : '');
  const gaugeBar = h('div', { class: 'gauge-bar' });
  const gaugeText = h('span', { class: 'gauge-text' }, 'budget: –');
  const gauge = h('div', { class: 'gauge', title: 'observed measuring cost against the budget' }, gaugeBar, gaugeText);
  const stop = h('button', { type: 'button', class: 'stop', disabled: true }, 'stop');
  const show = h('select', { name: 'show', title: 'which nodes the graph draws' },
    h('option', { value: 'findings' }, 'paths to the findings'), h('option', { value: 'true' }, 'paths to true nodes'),
    h('option', { value: 'all', selected: true }, 'every node'));
  const depth = h('select', { name: 'collapse-depth' }, ['all', 1, 2, 3, 4].map(d => h('option', { value: d }, d === 'all' ? 'expand all' : `collapse below depth ${d}`)));
  const graphBox = h('div', { class: 'graph-box' });
  const legend = shgLegend();
  const detailBox = h('aside', { class: 'detail-box' }, h('p', { class: 'muted' }, 'click a node for its detail'));
  const detail = nodeDetail(detailBox, { onNavigate: id => view.select(id) });
  const samples = compact ? null : samplesPanel({ live, searchId });
  const findings = findingsPanel(searchId, {
    onShow: id => view.select(id),
    onFlame: samples ? flame => samples.showFlame(flame) : null,
  });
  let running = false;

  // The JFR recordings the search kept as it ended, one link a JVM (filled once the search is read: a saved one has them).
  const recordingLinks = h('span', { class: 'export-recordings' });
  const showRecordings = recordings => {
    const kept = (recordings || []).filter(r => r.file);
    const missing = (recordings || []).filter(r => !r.file);
    recordingLinks.replaceChildren(...(recordings || []).length ? [h('span', {
      class: 'muted', title: 'what each JVM recorded in the search\'s last two minutes at most, for JDK Mission Control and jfr print',
    }, 'recording:'), ' '] : [],
    ...kept.map(r => [h('a', {
      href: `/api/searches/${q(searchId)}/export?format=jfr&daemon=${q(r.daemon)}`,
      download: `${searchId}-${r.daemon}.jfr`, class: 'export-jfr', title: `${r.daemon}: ${fmt(r.bytes / 1048576, 3)} MB`,
    }, kept.length > 1 ? `JFR ${r.daemon}` : 'JFR'), ' ']).flat(),
    ...missing.map(r => [h('span', { class: 'muted', title: r.error || '' }, `no JFR of ${r.daemon}`), ' ']).flat());
  };
  // The server's SVG of the view shown: the link follows the filter, collapsed nodes and opened groups (onView below).
  const svgExport = params => [`/api/searches/${q(searchId)}/export?format=svg`, ...params].join('&');
  const svgLink = h('a', { href: svgExport([]), download: `${searchId}.svg`, class: 'export-svg',
    title: 'the graph as shown here (filter, collapsed nodes, opened groups), drawn by the server' }, 'SVG');
  const exports = h('span', { class: 'exports' },
    h('a', { href: `/api/searches/${q(searchId)}/export?format=json`, download: `${searchId}.json`, class: 'export-json' }, 'JSON'), ' ',
    svgLink, ' ',
    h('a', { href: `/api/searches/${q(searchId)}/export?format=dot`, download: `${searchId}.dot` }, 'DOT'), ' ',
    live ? null : [h('span', { class: 'muted', title: 'the CPU stacks the search sampled, for flamegraph.pl, speedscope, async-profiler\'s converters and go tool pprof' }, 'stacks:'), ' ',
      h('a', { href: `/api/searches/${q(searchId)}/export?format=collapsed`, download: `${searchId}-cpu.collapsed.txt`, class: 'export-collapsed' }, 'collapsed'), ' ',
      h('a', { href: `/api/searches/${q(searchId)}/export?format=speedscope`, download: `${searchId}.speedscope.json` }, 'speedscope'), ' ',
      h('a', { href: `/api/searches/${q(searchId)}/export?format=pprof`, download: `${searchId}-cpu.pb.gz` }, 'pprof'), ' '],
    recordingLinks,
    h('button', { type: 'button', class: 'export-drawn', title: 'the graph as drawn here, collapsed parts and filter included',
      onclick: () => download(`${searchId}-view.svg`, svgText(view.svg), 'image/svg+xml') }, 'SVG as drawn'));
  const container = h('div', { class: `search-view${compact ? ' compact' : ''}`, dataset: { searchId } },
    compact ? null : findings.element,
    h('div', { class: 'toolbar' }, h('strong', { class: 'search-id' }, searchId), status, live ? stop : null,
      h('label', {}, 'show ', show), depth,
      h('button', { type: 'button', class: 'fit', onclick: () => view.fit() }, 'fit'), exports, live ? gauge : null),
    message, legend, h('div', { class: 'graph-and-detail' }, graphBox, detailBox), samples ? samples.element : null);
  root.append(container);

  // The server lays the graph out and picks the filter a user sees first (a large graph: the paths to its findings).
  const view = shgView(graphBox, {
    searchId,
    legend,
    onSelect: n => n && detail.show(searchId, n.id, running),
    onFirstView: answer => { show.value = answer.show; },
    onView: params => { svgLink.href = svgExport(params); },
    onError: e => message.show(e.message),
  });
  show.addEventListener('change', () => view.setShow(show.value));
  depth.addEventListener('change', () => view.collapseBelow(depth.value === 'all' ? 0 : Number(depth.value)));
  stop.addEventListener('click', async () => {
    try {
      await post(`/api/searches/${q(searchId)}/stop`);
      status.textContent = 'stopping…';
      stop.disabled = true;
    } catch (e) {
      message.show(e.message);
    }
  });

  const showBudget = (fraction, load) => {
    if (fraction == null) return;
    const share = load / fraction;
    gaugeBar.style.width = `${Math.min(100, share * 100)}%`;
    gaugeBar.classList.toggle('over', share > 1);
    gauge.dataset.load = load;
    gaugeText.textContent = `budget: ${fmt(load * 100, 2)}% of ${fmt(fraction * 100, 2)}% CPU (${Math.round(share * 100)}%)`;
  };
  const ended = reason => {
    running = false;
    stop.disabled = true;
    status.textContent = `ended: ${reason || ''}`;
    container.dataset.ended = 'true';
    detail.stopLive();
    if (samples) samples.ended();
  };

  let loaded = false;
  const buffered = [];
  const onEvent = event => {
    if (!event) return;
    if (!loaded) {
      buffered.push(event);
      return;
    }
    if (event.type === 'budget') showBudget(event.fraction, event.load);
    else if (event.type === 'searchEnded') {
      ended(event.reason);
      findings.changed();
    } else if (event.type === 'lockHolders') {
      // the holders of the contended locks were looked at: the lock findings say who holds them now
      findings.changed();
    } else if (event.type === 'searchSaved') {
      // Read from the file now: the findings with what only the saved search has, a lock's holders.
      findings.load();
    } else {
      view.changed();
      if (event.type === 'nodeChanged') findings.changed();
    }
  };
  const unsubscribe = live ? subscribe(`search:${searchId}`, (event, error) => (error ? message.show(error) : onEvent(event))) : () => {};
  findings.load();
  get(`/api/searches/${q(searchId)}`).then(answer => {
    running = !!answer.running;
    stop.disabled = !running;
    status.textContent = running ? 'running' : `ended${answer.endReason ? `: ${answer.endReason}` : ''}`;
    if (!running) container.dataset.ended = 'true';
    if (samples) {
      if (!running) samples.ended();
      samples.setDaemons(answer.daemons || []);
    }
    if (answer.budget) showBudget(answer.budget.fraction, answer.budget.load);
    if (!running) showRecordings(answer.recordings);
    loaded = true;
    buffered.splice(0).forEach(onEvent);
  }).catch(e => message.show(e.message));

  const api = { view, detail, container };
  container.bottlenose = api;
  return () => {
    unsubscribe();
    detail.close();
    findings.close();
    if (samples) samples.close();
  };
}

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
