// VM vs app: for the whole program or a /Code focus, application time by execution form and the VM costs
// attributed to it, over time (stacked areas) and as a table.
import { post, del, q } from '../api.js';
import { subscribe } from '../live.js';
import { stackedArea } from '../charts.js';
import { h, card, messageLine, jvmSelect, focusInput, fmt } from '../ui.js';

export function render(root) {
  const message = messageLine();
  const jvm = jvmSelect({ name: 'jvm' });
  const focus = h('input', { type: 'text', name: 'focus', value: '<>', size: '60', placeholder: '<>, </Code/pkg/Class/method()V> or pkg.Class::method' });
  const output = h('div', { class: 'vmapp-output' });
  let current = null;

  function close() {
    if (!current) return;
    current.unsubscribe();
    del(`/api/vmapp/${q(current.viewId)}`).catch(() => {});
    current = null;
  }

  async function start(event) {
    event.preventDefault();
    close();
    message.show(null);
    let answer;
    try {
      answer = await post('/api/vmapp', { daemonId: jvm.value, focus: focusInput(focus.value) });
    } catch (e) {
      message.show(e.message);
      return;
    }
    const chartBox = h('div', { class: 'vmapp-chart' });
    const table = h('table', { class: 'vmapp-table' });
    const count = h('span', { class: 'muted interval-count' }, 'waiting for the first whole interval…');
    const unit = h('p', { class: 'muted unit' }, 'Seconds per second, summed over the focus\'s threads: 1 s/s is one thread\'s '
      + 'whole time, so a program of four busy threads can show 4 s/s. The first interval after the metrics start is left out.');
    output.replaceChildren(h('h3', {}, `${answer.focus} `, count), unit, chartBox, table);
    output.dataset.viewId = answer.viewId;
    const chart = stackedArea(chartBox, answer.categories, { width: 760, height: 260, unit: answer.unitWords });
    const sums = new Map();
    let n = 0;
    const drawTable = latest => {
      const groups = [['app', 'the code running, by form'], ['vm', 'what the VM spends on it (each cost once)'],
        ['wait', 'its threads blocked (not running, not a VM cost)']];
      const total = values => answer.categories.reduce((s, c) => s + (values(c.key) || 0), 0);
      table.replaceChildren(h('tr', {}, ['', 'category', 'now', 'mean'].map(t => h('th', {}, t))),
        ...groups.flatMap(([kind, title]) => [
          h('tr', { class: 'group' }, h('td', { colspan: 4 }, title)),
          ...answer.categories.filter(c => c.kind === kind).map(c => h('tr', { dataset: { key: c.key } },
            h('td', {}, h('i', { class: 'swatch', style: `background:${chart.colour(c.key)}` })), h('td', {}, c.label),
            c.error ? h('td', { colspan: 2, class: 'muted category-error' }, c.error)
              : [h('td', { class: 'now' }, perSecond(latest[c.key])), h('td', { class: 'mean' }, perSecond(n ? (sums.get(c.key) || 0) / n : null))]))]),
        h('tr', { class: 'total' }, h('td', {}), h('td', {}, 'in all'), h('td', { class: 'now' }, perSecond(total(k => latest[k]))),
          h('td', { class: 'mean' }, perSecond(n ? total(k => sums.get(k)) / n : null))));
    };
    drawTable({});
    const unsubscribe = subscribe(`vmapp:${answer.viewId}`, (event, error) => {
      if (error) {
        message.show(error);
        return;
      }
      if (!event || !event.shares) return;
      n++;
      for (const [k, v] of Object.entries(event.shares)) sums.set(k, (sums.get(k) || 0) + (v || 0));
      chart.push(event.atMillis, event.shares);
      output.dataset.intervals = String(n);
      count.textContent = `${n} interval(s)`;
      drawTable(event.shares);
    });
    current = { viewId: answer.viewId, unsubscribe };
  }

  root.append(card('VM vs app', h('form', { class: 'row', onsubmit: start },
    h('label', {}, 'JVM ', jvm), h('label', {}, 'focus ', focus),
    h('button', { type: 'submit', class: 'primary show-button' }, 'show'),
    h('button', { type: 'button', onclick: () => { close(); output.replaceChildren(); } }, 'stop')), message, output));
  return close;
}

/** A time share as seconds per second (summed over threads, so it may pass 1). */
function perSecond(v) {
  return v === null || v === undefined ? '–' : `${fmt(v, 3)} s/s`;
}
