// A search's answer above its graph: the findings (GET /api/searches/{id}/findings), ranked by impact, each with
// its why, where, impact, evidence and next step; read again while the search runs, as its nodes change.
import { get, q } from './api.js';
import { h, messageLine } from './ui.js';

/** The findings shown at once; the rest, smaller, are behind a "more" toggle. */
const SHOWN = 5;

/**
 * The findings panel of one search; {@code onShow(nodeId)} shows a finding's node in the graph, {@code
 * onChange(findings)} hears of every new list, {@code onFlame(flame)} shows a finding's flame graph (its {@code flame}:
 * the graph and the code the server chose for its hypothesis and place).
 */
export function findingsPanel(searchId, { onShow, onChange, onFlame } = {}) {
  const summary = h('p', { class: 'findings-summary muted' }, 'loading the findings…');
  const list = h('ol', { class: 'findings-list' });
  const rest = h('ol', { class: 'findings-list', start: String(SHOWN + 1) });
  const restCount = h('span', {});
  const more = h('details', { class: 'more-findings', hidden: true }, h('summary', {}, restCount), rest);
  const message = messageLine();
  const element = h('section', { class: 'findings', dataset: { count: '0', loaded: 'false' } },
    h('h2', {}, 'Findings'), summary, message, list, more);
  let last = null;
  let timer = null;
  let closed = false;

  function render(answer) {
    const text = JSON.stringify(answer.findings) + answer.running + answer.saved;
    if (text === last) return;
    last = text;
    const n = answer.findings.length;
    element.dataset.count = String(n);
    element.dataset.loaded = 'true';
    element.dataset.saved = String(!!answer.saved);
    summary.textContent = n === 0
      ? (answer.running ? 'No finding yet: nothing has tested true so far.' : 'No finding: no hypothesis tested true.')
      : `${n} ${n === 1 ? 'cause' : 'causes'}, the costliest first${answer.running ? ' (so far: the search is running)' : ''}.`;
    list.replaceChildren(...answer.findings.slice(0, SHOWN).map(item));
    rest.replaceChildren(...answer.findings.slice(SHOWN).map(item));
    more.hidden = n <= SHOWN;
    restCount.textContent = `${n - SHOWN} more, each costing less`;
    if (onChange) onChange(answer.findings);
  }

  function item(f) {
    const threads = f.threads.length === 0 ? ''
      : `; on ${f.threads.some(t => t.startsWith('pool ')) ? '' : f.threads.length === 1 ? 'thread ' : 'threads '}${f.threads.join(', ')}`;
    const found = f.foundAfterSeconds == null ? '' : ` · found ${f.foundAfterSeconds.toFixed(1)} s into the search`;
    const cost = f.measuringCostText == null ? null : h('span', { class: 'cost' }, ` · ${f.measuringCostText}`);
    const show = onShow ? h('button', { type: 'button', class: 'show-node', title: 'select its node in the graph',
      onclick: () => onShow(f.nodeIds[0]) }, 'show in graph') : null;
    const stacks = onFlame && f.flame ? h('button', { type: 'button', class: 'show-flame', title: f.flame.text,
      dataset: { graph: f.flame.graph }, onclick: () => onFlame(f.flame) }, 'flame graph') : null;
    return h('li', { class: 'finding', dataset: { rank: String(f.rank), hypothesis: f.hypothesis, nodeId: String(f.nodeIds[0]) } },
      h('div', { class: 'finding-head' }, h('span', { class: 'rank' }, String(f.rank)), h('strong', { class: 'why' }, f.why),
        h('span', { class: 'impact' }, f.impact.text), show, stacks),
      h('div', { class: 'where' }, h('span', { class: 'label' }, 'where'), h('span', {}, f.where + threads)),
      f.programCode.length ? h('div', { class: 'program-code' }, h('span', { class: 'label' }, 'called from'),
        h('span', {}, f.programCode.join(', '))) : null,
      h('div', { class: 'evidence' }, h('span', { class: 'label' }, 'evidence'), h('span', {}, f.evidence.text + found, cost)),
      (f.holders || []).map(x => h('div', { class: 'holder' }, h('span', { class: 'label' }, 'held by'), h('span', {}, x.text))),
      h('div', { class: 'next' }, h('span', { class: 'label' }, 'next'), h('span', {}, f.nextStep)));
  }

  let asked = 0;
  async function load() {
    const n = ++asked;
    try {
      const answer = await get(`/api/searches/${q(searchId)}/findings`);
      if (n !== asked) return; // a later read was asked for (the search saved meanwhile): its answer counts
      render(answer);
      message.show(null);
    } catch (e) {
      message.show(e.message);
    }
  }

  return {
    element,
    load,
    /** Reads the findings again soon: at most once a second, however many nodes change meanwhile. */
    changed() {
      if (timer || closed) return;
      timer = setTimeout(() => {
        timer = null;
        if (!closed) load();
      }, 1000);
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

