// The detail of one SHG node: hypothesis, focus, state, value over time against the threshold, cost,
// and why it was refined, concluded or pruned. Re-read every two seconds while its search runs.
import { get, q } from './api.js';
import { lineChart } from './charts.js';
import { h, fmt, focusText, focusLeaf, time, messageLine } from './ui.js';

export function nodeDetail(panel, { onNavigate } = {}) {
  let timer = null;
  let current = null;

  async function load(searchId, nodeId, live) {
    const answer = await get(`/api/searches/${q(searchId)}/nodes/${q(nodeId)}`);
    if (current?.nodeId !== nodeId || current?.searchId !== searchId) return;
    render(answer, live);
  }

  function render(answer, live) {
    const n = answer.node;
    const threshold = answer.threshold ?? n.threshold;
    // the words the server writes a value with (s per second), none for a hypothesis without a unit
    const unit = answer.unit ? ` ${answer.unit}` : '';
    const links = (ids, word) => (ids && ids.length ? h('span', {}, `${word}: `,
      ids.map(id => h('a', { href: '#', class: 'node-link', onclick: e => { e.preventDefault(); onNavigate?.(id); } }, `#${id} `)))
      : null);
    const hyp = answer.hypothesis;
    const d = n.decision;
    const decided = d ? `${fmt(d.value)}${unit} ${hyp ? hyp.comparison : 'vs'} ${fmt(d.bar)}`
      + (d.bar !== d.threshold ? ` (threshold ${fmt(d.threshold)} moved by the ${fmt(hyp ? hyp.hysteresis * 100 : 0)}% hysteresis)` : ' (the threshold)')
      + `, held ${fmt(d.heldSeconds, 2)} s over ${d.intervals} interval${d.intervals === 1 ? '' : 's'}${d.clear ? ', clear early' : ''}` : null;
    const body = h('div', { class: 'node-detail', dataset: { nodeId: String(n.id), state: n.state } },
      h('h3', {}, h('span', { class: `state-chip state-${n.state}` }, n.state), ` ${hyp ? hyp.name : n.hypothesis}`,
        h('span', { class: 'muted' }, ` (${n.hypothesis})`)),
      h('dl', {},
        h('dt', {}, 'focus'), h('dd', { class: 'focus' }, focusText(n.focus)),
        h('dt', {}, 'value'), h('dd', { class: 'value' }, `${fmt(n.value)}${unit} (threshold ${fmt(threshold)})`),
        h('dt', {}, 'unit'), h('dd', { class: 'unit' }, unitText(hyp)),
        decided ? [h('dt', {}, 'decided by'), h('dd', { class: 'decision' }, decided)] : null,
        h('dt', {}, 'tested'), h('dd', {}, `since ${time(n.testedSinceMillis)}${n.concludedAtMillis ? `, concluded ${time(n.concludedAtMillis)}` : ''}`),
        h('dt', {}, 'cost'), h('dd', { class: 'cost' }, `predicted ${pct(n.predictedCost)}, observed ${pct(n.observedCost)} of the target's CPU`),
        h('dt', {}, 'why'), h('dd', { class: 'reason' }, answer.reason || n.reason || '–'),
        n.along ? [h('dt', {}, 'refined along'), h('dd', {}, n.along)] : null),
      h('div', { class: 'node-links' }, links(answer.parents, 'from'), ' ', links(answer.children, 'to')));
    const chartBox = h('div', { class: 'node-chart' });
    body.append(h('h4', {}, 'value over time'), chartBox);
    const chart = lineChart(chartBox, { width: 400, height: 180, threshold, unit: answer.unit, emptyText: 'no values recorded' });
    chart.setSeries((answer.series || []).map(s => ({
      name: `${s.metric} @ ${focusLeaf(s.focus)}`,
      points: s.points.map(p => [p[0], p[1]]),
    })));
    const costs = (answer.series || []).flatMap(s => s.points.map(p => p[2]).filter(c => c >= 0));
    if (costs.length) {
      body.append(h('p', { class: 'series-cost' }, `measured cost: mean ${pct(costs.reduce((a, b) => a + b, 0) / costs.length)},`
        + ` max ${pct(Math.max(...costs))} over ${costs.length} interval(s)`));
    }
    panel.replaceChildren(body);
    if (live) schedule(answer.node.state === 'testing' || answer.node.state === 'untested' ? 2000 : 5000);
  }

  function schedule(millis) {
    clearTimeout(timer);
    const { searchId, nodeId, live } = current;
    timer = setTimeout(() => load(searchId, nodeId, live).catch(() => {}), millis);
  }

  return {
    show(searchId, nodeId, live) {
      clearTimeout(timer);
      current = { searchId, nodeId, live };
      const message = messageLine();
      panel.replaceChildren(h('p', { class: 'muted' }, `loading node #${nodeId}…`), message);
      load(searchId, nodeId, live).catch(e => message.show(e.message));
    },
    stopLive() {
      if (current) current.live = false;
      clearTimeout(timer);
    },
    close() {
      clearTimeout(timer);
      current = null;
    },
  };
}

/** What a value of the hypothesis means: for time, seconds per second summed over threads (2.0: two threads' whole time). */
function unitText(hyp) {
  if (!hyp) return '–';
  return hyp.unit === 'fraction of time'
    ? 'seconds per second, summed over the threads in the focus (1.0 = one thread all the time)'
    : hyp.unit;
}

function pct(v) {
  return v === null || v === undefined || Number.isNaN(v) ? '–' : `${fmt(v * 100, 2)}%`;
}
