// Live plots of one metric on one focus (POST /api/plots + topic plot:<id>), each in its own chart.
import { post, del, q } from './api.js';
import { subscribe } from './live.js';
import { lineChart } from './charts.js';
import { h, focusText, fmt } from './ui.js';

export function plotPanel(container) {
  const plots = new Map();

  async function remove(plotId) {
    const p = plots.get(plotId);
    if (!p) return;
    plots.delete(plotId);
    p.unsubscribe();
    p.element.remove();
    try {
      await del(`/api/plots/${q(plotId)}`);
    } catch (e) {
      // the plot may already have ended with its daemon
    }
  }

  return {
    /** Starts a plot; throws the server's error (unknown metric, focus, JVM) unchanged. */
    async add(daemonId, metric, focus) {
      const answer = await post('/api/plots', { daemonId, metric, focus: focusText(focus) });
      const chartBox = h('div', { class: 'plot-chart' });
      const count = h('span', { class: 'point-count muted' }, '0 values');
      const element = h('div', { class: 'plot', dataset: { plotId: String(answer.plotId), metric } },
        h('div', { class: 'plot-title' }, h('strong', {}, answer.metric || metric), ` on ${focusText(answer.focus ?? focus)}`,
          answer.unitWords ? h('span', { class: 'muted unit' }, ` (${answer.unitWords})`) : null, ' ', count,
          h('button', { type: 'button', class: 'remove', onclick: () => remove(answer.plotId) }, 'remove')),
        chartBox);
      container.prepend(element);
      const chart = lineChart(chartBox, { width: 640, height: 200, unit: answer.unitWords });
      let n = 0;
      const unsubscribe = subscribe(`plot:${answer.plotId}`, (event, error) => {
        if (error) {
          count.textContent = error;
          return;
        }
        if (event && event.value !== null && event.value !== undefined) {
          chart.push(metric, event.atMillis, event.value);
          n++;
          element.dataset.points = String(n);
          count.textContent = `${n} values, last ${fmt(event.value)}${answer.unitWords ? ` ${answer.unitWords}` : ''}`;
        }
      });
      plots.set(answer.plotId, { element, unsubscribe });
      return answer;
    },
    removeAll() {
      [...plots.keys()].forEach(remove);
    },
  };
}
