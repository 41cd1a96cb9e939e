// JVMs: every JVM in the cluster with a DYVISE-style status row (one dot per hypothesis family: hue says
// whether it is a problem, brightness how confident the answer is), the searches on it from anywhere in the
// cluster (this service's, a `bottlenose search` command's, another service's), and attaching a local JVM by pid.
import { get, post } from '../api.js';
import { subscribe } from '../live.js';
import { h, card, messageLine, fmt, time } from '../ui.js';

export const FAMILIES = [
  { id: 'cpu_bound', label: 'cpu' },
  { id: 'sync_wait', label: 'sync' },
  { id: 'io_wait', label: 'io' },
  { id: 'memory_pressure', label: 'memory' },
];

/**
 * Hue: red for a problem (true), green for none (false), ochre for unknown, blue-grey while under test;
 * brightness: confidence (for a family under test, the share of the evidence time it has had).
 */
export function dotColour(status) {
  if (!status || (status.state === 'untested' && !(status.confidence > 0))) return null;
  const confidence = Math.max(0, Math.min(1, status.confidence ?? 0.5));
  const lightness = 88 - 48 * confidence;
  const hue = { true: 0, false: 130, unknown: 45 }[status.state] ?? 220;
  const saturation = status.state === 'unknown' ? 35 : status.state === 'untested' ? 20 : 75;
  return `hsl(${hue}, ${saturation}%, ${lightness}%)`;
}

function dots(jvm) {
  return h('span', { class: 'dots' }, FAMILIES.map(f => {
    const s = (jvm.status || []).find(x => x.family === f.id);
    const colour = dotColour(s);
    const title = s ? `${f.id}: ${s.state}, value ${fmt(s.value)}${s.unit ? ` ${s.unit}` : ''} (threshold ${fmt(s.threshold)}),`
      + ` confidence ${fmt(s.confidence, 2)}`
      + (s.searchId ? ` (search ${s.searchId})` : '') : `${f.id}: not tested yet`;
    const dot = h('span', { class: `dot${colour ? '' : ' untested'}`, title, dataset: { family: f.id, state: s ? s.state : 'untested' } });
    if (colour) dot.style.background = colour;
    const labelled = h('span', { class: 'dot-cell' }, dot, h('small', {}, f.label));
    return s && s.searchId && s.own ? h('a', { href: `#/search/${encodeURIComponent(s.searchId)}` }, labelled) : labelled;
  }));
}

/** Who runs a search: this service, or the command, its process, user and host. */
function runBy(s) {
  return s.own ? 'this service' : `${s.startedBy || 'another process'}, pid ${s.processId}, user ${s.user || '?'} on ${s.host || '?'}`;
}

/**
 * One search on a JVM, read-only when another process runs it: its state, who runs it, its headline (nodes, true
 * nodes, the top finding), budget and start; the live view when this service runs it, else where it is saved.
 */
function searchLine(s) {
  const running = s.state === 'running';
  const headline = s.nodes === 0 ? 'starting' : `${s.nodes} nodes, ${s.trueNodes} true`
    + (s.topFinding ? ` — top finding: ${s.topFinding}` : '');
  const where = s.own
    ? h('a', { href: `#/search/${encodeURIComponent(s.searchId)}`, class: 'open-search' }, running ? 'live view' : 'open')
    : h('span', { class: 'muted saved-in' }, `${running ? 'saved as it ends in' : 'saved in'} ${s.savedIn || '?'}`
      + (s.host ? ` on ${s.host}` : ''));
  return h('li', { class: `cluster-search ${s.state}`, dataset: { searchId: s.searchId, own: String(!!s.own), state: s.state } },
    h('span', { class: `search-state ${s.state}` }, running ? 'running' : `ended: ${s.endReason || '?'}`), ' ',
    h('strong', { class: 'run-by' }, runBy(s)), ' · ', h('span', { class: 'headline' }, headline),
    h('span', { class: 'muted' }, ` · budget ${fmt(100 * s.budget, 2)}% · started ${time(s.startedAtMillis)} · ${s.searchId} · `), where);
}

/** The row under a JVM's that lists the searches on it, or nothing when there is none. */
function searchesRow(j) {
  if (!j.searches || j.searches.length === 0) return [];
  return [h('tr', { class: 'jvm-searches', dataset: { daemonId: j.daemonId } },
    h('td', { colspan: 7 }, h('ul', { class: 'cluster-searches' }, j.searches.map(searchLine))))];
}

export function render(root) {
  const message = messageLine();
  const table = h('table', { class: 'jvm-table' });
  const locals = h('table', { class: 'local-table' });
  const pid = h('input', { type: 'number', min: '1', placeholder: 'pid', name: 'pid', class: 'pid' });
  const attachMessage = messageLine();

  async function attach(p) {
    attachMessage.show(`attaching to pid ${p}…`, 'info');
    try {
      const answer = await post('/api/jvms', { pid: Number(p) });
      attachMessage.show(`attached: daemon ${answer.daemonId} for pid ${answer.pid}`, 'ok');
      load();
    } catch (e) {
      attachMessage.show(e.message);
    }
  }

  async function load() {
    try {
      const answer = await get('/api/jvms');
      message.show(null);
      table.replaceChildren(h('tr', {}, ['JVM', 'pid', 'Java', 'host', 'state', 'status', ''].map(t => h('th', {}, t))),
        ...answer.jvms.flatMap(j => [h('tr', { class: `jvm ${j.state}`, dataset: { daemonId: j.daemonId } },
          h('td', {}, h('strong', {}, j.mainClass || '?'), h('div', { class: 'muted' }, j.daemonId)),
          h('td', {}, j.pid), h('td', {}, j.javaVersion || ''), h('td', {}, j.host || ''),
          h('td', {}, j.state), h('td', {}, dots(j)),
          h('td', {}, j.state === 'running' ? h('a', { href: `#/search/new/${encodeURIComponent(j.daemonId)}` }, 'search…') : '')),
          ...searchesRow(j)]));
      if (answer.jvms.length === 0) table.append(h('tr', {}, h('td', { colspan: 7, class: 'muted' }, 'no JVM in the cluster yet: attach one below')));
    } catch (e) {
      message.show(e.message);
    }
    try {
      const answer = await get('/api/local-jvms');
      locals.replaceChildren(h('tr', {}, ['pid', 'main class', 'Java', ''].map(t => h('th', {}, t))),
        ...answer.jvms.map(j => h('tr', { dataset: { pid: String(j.pid) } }, h('td', {}, j.pid),
          h('td', {}, j.mainClass || '?', j.waitingAgent ? h('span', { class: 'muted', title: 'started with'
            + ' -javaagent:bottlenose-agent.jar: attaching hands it the options on its socket' }, ' [waiting agent]') : '',
            j.container ? h('span', { class: 'muted', title: 'in a container (a mount namespace of its own): listed by its'
            + ' pid on this machine; a search reaches it if it shares this machine\'s network' }, ' [container]') : ''),
          h('td', {}, j.javaVersion || ''),
          h('td', {}, j.attached ? h('span', { class: 'muted' }, 'attached')
            : h('button', { type: 'button', onclick: () => attach(j.pid) }, 'attach')))));
    } catch (e) {
      attachMessage.show(e.message);
    }
  }

  root.append(
    card('JVMs in the cluster', h('p', { class: 'legend-line' }, 'one dot per hypothesis family — ',
      h('span', { class: 'dot', style: `background:${dotColour({ state: 'true', confidence: 1 })}` }), ' problem, ',
      h('span', { class: 'dot', style: `background:${dotColour({ state: 'false', confidence: 1 })}` }), ' no problem, ',
      h('span', { class: 'dot', style: `background:${dotColour({ state: 'unknown', confidence: 1 })}` }), ' unknown, ',
      h('span', { class: 'dot untested' }), ' not tested; paler = less confident. Below a JVM, the searches on it from'
        + ' anywhere in the cluster: this service\'s (open them live), or a bottlenose search command\'s (read-only)'),
      message, table),
    card('Attach a local JVM',
      h('form', { class: 'inline', onsubmit: e => { e.preventDefault(); attach(pid.value); } },
        h('label', {}, 'pid ', pid), h('button', { type: 'submit' }, 'attach')),
      attachMessage, locals));
  load();
  return subscribe('jvms', () => load());
}
