// "Your hypotheses" on the Search page: declare hypotheses of your own for the search you start (the
// hypothesis.<id>.* settings of consultant/README.md, "Adding a hypothesis"), over any metric the daemons know,
// and paste metric definitions, checked with line and column and added to the daemons before the search starts.
import { get, post } from './api.js';
import { editor } from './pages/metrics.js';
import { h, messageLine } from './ui.js';

const HIERARCHIES = ['Code', 'Threads', 'SyncObjects', 'IO', 'Memory', 'Process', 'Machine'];
const ID = /^[a-z][a-z0-9_]*$/;
const PLACEHOLDER = `# metric definitions (optional), e.g.
# metric sleeping {
#   description "Time asleep in Thread.sleep"
#   unit fraction
#   accumulates duration of sleep
#   refine /Code inclusive, /Threads, /Process
#   combine sum
#   report fraction
# }
`;

/**
 * The form; `parents` are [id, label] of the built-in hypotheses. Its `settings()` resolves to the
 * hypotheses' keys (after adding the pasted metrics to the daemons), or throws an Error naming what is wrong;
 * nothing typed is cleared either way.
 */
export function hypothesisForm(parents) {
  const message = messageLine('hypothesis-message');
  const errorList = h('ul', { class: 'errors metric-errors' });
  const rows = h('div', { class: 'hypothesis-rows' });
  const ed = editor('');
  ed.text.placeholder = PLACEHOLDER;
  ed.text.rows = 8;
  ed.element.classList.add('short');
  let metrics = [];
  let added = null;

  async function loadMetrics(choose) {
    const answer = await get('/api/metrics');
    metrics = answer.metrics.map(m => m.name);
    for (const select of rows.querySelectorAll('select.h-metric')) {
      const previous = choose && !select.value ? choose : select.value;
      select.replaceChildren(...metricOptions());
      if (previous) select.value = previous;
    }
  }

  const metricOptions = () => [h('option', { value: '' }, 'choose a metric'), ...metrics.map(m => h('option', { value: m }, m))];

  function showErrors(errors) {
    ed.mark(errors);
    errorList.replaceChildren(...errors.map(e => h('li', { class: 'error', dataset: { line: String(e.line), column: String(e.column) } },
      h('a', { href: '#', onclick: ev => { ev.preventDefault(); ed.goTo(e.line, e.column); } }, `line ${e.line}, column ${e.column}`),
      `: ${e.message}`)));
  }

  const hasDefinitions = () => ed.text.value.split('\n').some(l => l.trim() && !l.trim().startsWith('#'));

  /** Checks the pasted definitions and adds them to the daemons (once per text); throws on errors. */
  async function addDefinitions() {
    if (!hasDefinitions() || added === ed.text.value) return;
    const check = await post('/api/metrics/check', { text: ed.text.value });
    if (!check.ok) {
      showErrors(check.errors);
      throw new Error(`the metric definitions have ${check.errors.length} error(s); nothing was started`);
    }
    const answer = await post('/api/metrics', { text: ed.text.value });
    showErrors([]);
    added = ed.text.value;
    message.show(`added ${answer.added.join(', ')} to ${answer.daemons.length} daemon(s)`, 'ok');
    await loadMetrics(answer.added[0]);
  }

  function addRow() {
    const n = rows.children.length + 1;
    const field = (label, input) => h('label', {}, `${label} `, input);
    const row = h('fieldset', { class: 'hypothesis-row' }, h('legend', {}, `hypothesis ${n}`),
      h('div', { class: 'row' },
        field('id', h('input', { type: 'text', class: 'h-id', name: `h${n}-id`, size: '16', placeholder: 'lock_convoy', required: true })),
        field('name', h('input', { type: 'text', class: 'h-name', name: `h${n}-name`, size: '22', placeholder: 'Lock convoy' })),
        field('metric', h('select', { class: 'h-metric', name: `h${n}-metric` }, metricOptions())),
        field('is', h('select', { class: 'h-compare', name: `h${n}-compare` },
          h('option', { value: 'above' }, 'above'), h('option', { value: 'below' }, 'below'))),
        field('threshold', h('input', { type: 'number', class: 'h-threshold', name: `h${n}-threshold`, step: 'any', required: true }))),
      h('div', { class: 'row' },
        field('tested below', h('select', { class: 'h-parent', name: `h${n}-parent` },
          h('option', { value: 'top' }, 'the top (tested from the start)'), parents.map(([id, label]) => h('option', { value: id }, label)))),
        h('span', { class: 'h-refine' }, 'refined along ', HIERARCHIES.map(x =>
          h('label', {}, h('input', { type: 'checkbox', value: x, checked: x === 'Code' }), ` ${x}`))),
        h('button', { type: 'button', class: 'h-remove', onclick: () => row.remove() }, 'remove')));
    rows.append(row);
    return row;
  }

  /** The keys of every declared hypothesis; throws an Error naming the first thing missing. */
  function keys() {
    const out = {};
    const seen = new Set(parents.map(([id]) => id));
    for (const row of rows.children) {
      const value = cls => row.querySelector(cls).value.trim();
      const id = value('.h-id');
      const label = row.querySelector('legend').textContent;
      if (!ID.test(id)) throw new Error(`${label}: the id must be lower case letters, digits and _ (starting with a letter), not '${id}'`);
      if (seen.has(id)) throw new Error(`${label}: the id '${id}' is taken`);
      seen.add(id);
      if (!value('.h-metric')) throw new Error(`${label} (${id}): choose a metric`);
      if (value('.h-threshold') === '' || Number.isNaN(Number(value('.h-threshold')))) throw new Error(`${label} (${id}): give a threshold`);
      const refine = [...row.querySelectorAll('.h-refine input:checked')].map(i => i.value);
      out[`hypothesis.${id}.metric`] = value('.h-metric');
      out[`hypothesis.${id}.compare`] = value('.h-compare');
      if (value('.h-name')) out[`hypothesis.${id}.name`] = value('.h-name');
      out[`hypothesis.${id}.parent`] = value('.h-parent');
      out[`hypothesis.${id}.refine`] = refine.join(',');
      out[`${id}.threshold`] = value('.h-threshold');
    }
    return out;
  }

  const element = h('details', { class: 'hypothesis-form' }, h('summary', {}, 'your hypotheses'),
    h('p', { class: 'muted' }, 'Test hypotheses of your own in this search, over any metric the daemons know; paste metric ',
      'definitions to add new metrics first (they are checked, then added to every running daemon).'),
    rows,
    h('button', { type: 'button', class: 'h-add', onclick: () => addRow() }, 'add a hypothesis'),
    h('h4', {}, 'metric definitions'), ed.element, errorList,
    h('div', { class: 'row' }, h('button', { type: 'button', class: 'h-add-metrics', onclick: async () => {
      try {
        message.show(null);
        if (!hasDefinitions()) {
          message.show('nothing to add: the text defines no metric');
          return;
        }
        await addDefinitions();
      } catch (e) {
        if (e.body && Array.isArray(e.body.errors)) showErrors(e.body.errors);
        message.show(e.message);
      }
    } }, 'check and add the metrics')),
    message);
  loadMetrics().catch(e => message.show(e.message));

  return {
    element,
    /** The settings the declared hypotheses add to the search (pasted metrics added to the daemons first). */
    async settings() {
      message.show(null);
      try {
        await addDefinitions();
        return keys();
      } catch (e) {
        if (e.body && Array.isArray(e.body.errors)) showErrors(e.body.errors);
        message.show(e.message);
        element.open = true;
        throw e;
      }
    },
  };
}
