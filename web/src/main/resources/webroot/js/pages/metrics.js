// Metrics: a metric-language editor with line numbers; check (errors marked in the gutter at their line,
// listed with line and column), save to the running daemons, and plot a metric on a chosen focus.
import { get, post } from '../api.js';
import { plotPanel } from '../plots.js';
import { h, card, messageLine, jvmSelect, focusInput } from '../ui.js';

const EXAMPLE = `# time asleep in Thread.sleep below the focus
metric sleeping {
  description "Time asleep in Thread.sleep"
  unit fraction
  accumulates duration of sleep
  refine /Code inclusive, /Threads, /Process
  combine sum
  report fraction
}
`;

export function editor(initial) {
  const gutter = h('div', { class: 'gutter', 'aria-hidden': 'true' });
  const text = h('textarea', { class: 'code', name: 'metric-text', spellcheck: 'false', wrap: 'off', rows: '18' });
  text.value = initial;
  const box = h('div', { class: 'editor' }, gutter, text);
  let marks = new Map();
  const lines = () => {
    const count = text.value.split('\n').length;
    gutter.replaceChildren(...Array.from({ length: count }, (_, i) => {
      const errors = marks.get(i + 1);
      return h('div', { class: errors ? 'line-no error' : 'line-no', dataset: { line: String(i + 1) },
        title: errors ? errors.map(e => `${e.line}:${e.column} ${e.message}`).join('\n') : null }, errors ? `● ${i + 1}` : String(i + 1));
    }));
    gutter.scrollTop = text.scrollTop;
  };
  text.addEventListener('input', () => {
    marks = new Map();
    lines();
  });
  text.addEventListener('scroll', () => { gutter.scrollTop = text.scrollTop; });
  lines();
  return {
    element: box,
    text,
    mark(errors) {
      marks = new Map();
      for (const e of errors) {
        if (!marks.has(e.line)) marks.set(e.line, []);
        marks.get(e.line).push(e);
      }
      lines();
    },
    /** Puts the caret at line and column (both from 1). */
    goTo(line, column) {
      const all = text.value.split('\n');
      let offset = 0;
      for (let i = 0; i < line - 1 && i < all.length; i++) offset += all[i].length + 1;
      offset += Math.max(0, column - 1);
      text.focus();
      text.setSelectionRange(offset, offset);
    },
  };
}

export function render(root) {
  const ed = editor(EXAMPLE);
  const message = messageLine('check-result');
  const errorList = h('ul', { class: 'errors' });
  const known = h('table', { class: 'metric-list' });
  const metric = h('select', { name: 'plot-metric' });
  const jvm = jvmSelect({ name: 'jvm' });
  const focus = h('input', { type: 'text', name: 'focus', value: '<>', size: '60', placeholder: '<> is the whole program; or pkg.Class::method, a class, a package' });
  const plotMessage = messageLine();
  const plots = h('div', { class: 'plots' });
  const panel = plotPanel(plots);

  function showErrors(errors) {
    ed.mark(errors);
    errorList.replaceChildren(...errors.map(e => h('li', { class: 'error', dataset: { line: String(e.line), column: String(e.column) } },
      h('a', { href: '#', onclick: ev => { ev.preventDefault(); ed.goTo(e.line, e.column); } }, `line ${e.line}, column ${e.column}`), `: ${e.message}`)));
  }

  async function check() {
    try {
      const answer = await post('/api/metrics/check', { text: ed.text.value });
      if (answer.ok) {
        showErrors([]);
        message.show(`no errors: ${answer.metrics.join(', ') || 'no metric defined'}`, 'ok');
      } else {
        showErrors(answer.errors);
        message.show(`${answer.errors.length} error(s)`);
      }
      return answer.ok;
    } catch (e) {
      message.show(e.message);
      return false;
    }
  }

  async function save() {
    try {
      const answer = await post('/api/metrics', { text: ed.text.value });
      showErrors([]);
      message.show(`saved ${answer.added.join(', ')} to ${answer.daemons.length} daemon(s): ${answer.daemons.join(', ')}`, 'ok');
      await loadKnown(answer.added[0]);
    } catch (e) {
      if (e.body && Array.isArray(e.body.errors)) showErrors(e.body.errors);
      message.show(e.message);
    }
  }

  async function loadKnown(choose) {
    try {
      const answer = await get('/api/metrics');
      known.replaceChildren(h('tr', {}, ['metric', 'unit', 'refines', '', 'description'].map(t => h('th', {}, t))),
        ...answer.metrics.map(m => h('tr', { dataset: { metric: m.name } }, h('td', {}, h('code', {}, m.name)), h('td', { class: 'unit' }, m.unit || '', m.unitWords && m.unitWords !== m.unit ? h('span', { class: 'muted' }, ` (${m.unitWords})`) : null),
          h('td', {}, (m.refine || []).join(', ')), h('td', {}, m.builtIn ? 'built-in' : 'added'), h('td', {}, m.description || ''))));
      const previous = choose || metric.value;
      metric.replaceChildren(...answer.metrics.map(m => h('option', { value: m.name }, m.name)));
      if (previous) metric.value = previous;
    } catch (e) {
      message.show(e.message);
    }
  }

  async function plot() {
    try {
      plotMessage.show(null);
      await panel.add(jvm.value, metric.value, focusInput(focus.value));
    } catch (e) {
      plotMessage.show(e.message);
    }
  }

  root.append(card('Metric definitions',
    ed.element,
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'check', onclick: check }, 'check'),
      h('button', { type: 'button', class: 'save primary', onclick: save }, 'save to running daemons')),
    message, errorList),
  card('Plot', h('div', { class: 'row' }, h('label', {}, 'JVM ', jvm), h('label', {}, 'metric ', metric),
    h('label', {}, 'focus ', focus), h('button', { type: 'button', class: 'plot-button primary', onclick: plot }, 'plot')), plotMessage, plots),
  card('Known metrics', known));
  loadKnown();
  return () => panel.removeAll();
}
