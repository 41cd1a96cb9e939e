// History: saved searches; open one read-only (graph, values), compare two side by side (their findings, a
// differential flame graph of their samples, their graphs), export.
import { get, q } from '../api.js';
import { searchView } from './search.js';
import { flameGraph } from '../flame.js';
import { GRAPHS } from '../samples.js';
import { h, card, messageLine, time } from '../ui.js';

export function render(root, params, name) {
  if (name === 'compare' && params.length >= 2) {
    return compare(root, params[0], params[1]);
  }
  if (params[0]) {
    return searchView(root, params[0], { live: false });
  }
  return list(root);
}

function list(root) {
  const message = messageLine();
  const table = h('table', { class: 'history-table' });
  const compareButton = h('button', { type: 'button', class: 'compare', disabled: true }, 'compare the two selected');
  const chosen = () => [...table.querySelectorAll('input[name=pick]:checked')].map(i => i.value);
  table.addEventListener('change', () => { compareButton.disabled = chosen().length !== 2; });
  compareButton.addEventListener('click', () => {
    const [a, b] = chosen();
    location.hash = `#/compare/${encodeURIComponent(a)}/${encodeURIComponent(b)}`;
  });
  get('/api/searches').then(answer => {
    const saved = answer.searches.filter(s => !s.running);
    table.replaceChildren(h('tr', {}, ['', 'search', 'started', 'ended', 'why it ended', 'JVMs', 'nodes', 'findings', 'export'].map(t => h('th', {}, t))),
      ...saved.map(s => h('tr', { dataset: { searchId: s.searchId } },
        h('td', {}, h('input', { type: 'checkbox', name: 'pick', value: s.searchId })),
        h('td', {}, h('a', { href: `#/history/${encodeURIComponent(s.searchId)}`, class: 'open' }, s.searchId)),
        h('td', {}, time(s.startedAt)), h('td', {}, time(s.endedAt)), h('td', {}, s.endReason || ''),
        h('td', {}, (s.daemons || []).join(', ')), h('td', {}, s.nodes ?? ''), h('td', {}, s.findings ?? ''),
        h('td', {}, [['json', 'json'], ['svg', 'svg'], ['dot', 'dot'], ['collapsed', 'collapsed.txt'], ['speedscope', 'speedscope.json'], ['pprof', 'pb.gz']]
          .map(([f, ext]) => [h('a', { href: `/api/searches/${q(s.searchId)}/export?format=${f}`, download: `${s.searchId}.${ext}` }, f), ' '])
          .concat((s.recordings || []).filter(r => r.file).map(r => [h('a', {
            href: `/api/searches/${q(s.searchId)}/export?format=jfr&daemon=${q(r.daemon)}`, download: `${s.searchId}-${r.daemon}.jfr`,
            class: 'export-jfr', title: `the JFR recording of ${r.daemon}, for JDK Mission Control and jfr print`,
          }, 'jfr'), ' ']))))));
    if (saved.length === 0) table.append(h('tr', {}, h('td', { colspan: 9, class: 'muted' }, 'no saved search yet')));
  }).catch(e => message.show(e.message));
  root.append(card('Saved searches', message, h('div', { class: 'row' }, compareButton), table));
  return null;
}

function compare(root, a, b) {
  const diff = h('div', { class: 'compare-diff' });
  const left = h('div', { class: 'compare-side' });
  const right = h('div', { class: 'compare-side' });
  const flameBox = h('div', { class: 'flame-box compare-flame' });
  const flameMessage = h('div', { class: 'muted' });
  const graphChoice = h('select', { name: 'graph' }, GRAPHS.map(([g, words]) => h('option', { value: g }, words)));
  root.append(card(`Compare ${a} and ${b}`, diff),
    card(`Samples of ${b} against ${a}`, h('div', { class: 'row' }, h('label', {}, 'samples ', graphChoice),
      h('span', { class: 'muted' }, ' red: a larger share of the samples than before, blue: smaller')), flameMessage, flameBox),
    h('div', { class: 'compare-sides' }, left, right));
  const flame = flameGraph(flameBox);
  const drawDiff = () => {
    const graph = graphChoice.value;
    Promise.all([a, b].map(id => get(`/api/searches/${q(id)}/stacks?graph=${graph}`).catch(() => null))).then(([before, after]) => {
      const missing = [[a, before], [b, after]].filter(([, s]) => !s).map(([id]) => id);
      flameMessage.textContent = missing.length ? `no ${graph} samples kept by ${missing.join(' and ')}` : '';
      flame.set(after, before);
    });
  };
  graphChoice.addEventListener('change', drawDiff);
  drawDiff();
  const cleanups = [searchView(left, a, { live: false, compact: true }), searchView(right, b, { live: false, compact: true })];
  Promise.all([get(`/api/searches/${q(a)}/findings`), get(`/api/searches/${q(b)}/findings`)]).then(([x, y]) => {
    const key = f => `${f.why} at ${f.where}`;
    const ka = new Set(x.findings.map(key));
    const kb = new Set(y.findings.map(key));
    const row = (title, items, cls) => h('tr', { class: cls, dataset: { count: String(items.length) } }, h('th', {}, `${title} (${items.length})`),
      h('td', {}, items.length ? shortList(items) : h('span', { class: 'muted' }, 'none')));
    diff.replaceChildren(h('table', { class: 'diff-table' },
      row('findings in both', [...ka].filter(k => kb.has(k)), 'both'),
      row(`only in ${a}`, [...ka].filter(k => !kb.has(k)), 'only-a'),
      row(`only in ${b}`, [...kb].filter(k => !ka.has(k)), 'only-b')));
  }).catch(e => diff.replaceChildren(h('div', { class: 'message error' }, e.message)));
  return () => cleanups.forEach(c => c && c());
}

/** The first few items, the rest behind a "more" toggle. */
function shortList(items, shown = 6) {
  const ul = h('ul', {}, items.slice(0, shown).map(i => h('li', {}, i)));
  if (items.length > shown) {
    const rest = items.slice(shown).map(i => h('li', {}, i));
    ul.append(h('details', {}, h('summary', {}, `${items.length - shown} more`), h('ul', {}, rest)));
  }
  return ul;
}
