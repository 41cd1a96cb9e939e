// Resources: browse a JVM's hierarchies, pick a focus (one resource per hierarchy), plot a metric on it live.
import { get, q } from '../api.js';
import { plotPanel } from '../plots.js';
import { h, card, messageLine, jvmSelect, focusText } from '../ui.js';

const hierarchyOf = path => `/${path.split('/').filter(Boolean)[0] || ''}`;

export function render(root) {
  const message = messageLine();
  const jvm = jvmSelect({ name: 'jvm' });
  const tree = h('ul', { class: 'resource-tree' });
  const focus = new Map();
  const focusLine = h('div', { class: 'focus-line' });
  const metric = h('select', { name: 'metric' });
  const plots = h('div', { class: 'plots' });
  const panel = plotPanel(plots);

  function showFocus() {
    const paths = [...focus.values()];
    focusLine.replaceChildren(h('code', { class: 'focus' }, focusText(paths)),
      ...paths.map(p => h('button', { type: 'button', class: 'chip', title: 'remove from the focus', onclick: () => { focus.delete(hierarchyOf(p)); showFocus(); } }, `${p} ×`)));
    tree.querySelectorAll('.resource').forEach(e => e.classList.toggle('in-focus', focus.get(hierarchyOf(e.dataset.path)) === e.dataset.path));
  }

  function item(child) {
    const li = h('li', { class: child.hasChildren ? 'closed' : 'leaf' });
    const sub = h('ul');
    const twist = h('button', { type: 'button', class: 'twist', disabled: !child.hasChildren }, child.hasChildren ? '▸' : '·');
    const name = h('a', { href: '#', class: 'resource', dataset: { path: child.path }, title: `${child.path} (${child.kind || ''})` }, child.name || child.path);
    name.addEventListener('click', e => {
      e.preventDefault();
      focus.set(hierarchyOf(child.path), child.path);
      showFocus();
    });
    let loaded = false;
    twist.addEventListener('click', async () => {
      if (li.classList.contains('open')) {
        li.className = 'closed';
        twist.textContent = '▸';
        return;
      }
      li.className = 'open';
      twist.textContent = '▾';
      if (!loaded) {
        loaded = true;
        await fill(sub, child.path);
      }
    });
    li.append(twist, ' ', name, child.kind ? h('small', { class: 'muted' }, ` ${child.kind}`) : null, sub);
    return li;
  }

  async function fill(list, path) {
    list.replaceChildren(h('li', { class: 'muted' }, 'loading…'));
    try {
      const answer = await get(`/api/jvms/${q(jvm.value)}/resources${path ? `?path=${q(path)}` : ''}`);
      list.replaceChildren(...answer.children.map(item));
      if (answer.children.length === 0) list.replaceChildren(h('li', { class: 'muted' }, 'no children'));
    } catch (e) {
      list.replaceChildren(h('li', { class: 'message error' }, e.message));
    }
  }

  jvm.addEventListener('change', () => { focus.clear(); showFocus(); fill(tree, null); });
  jvm.ready.then(running => running.length && fill(tree, null)).catch(e => message.show(e.message));
  get('/api/metrics').then(answer => metric.replaceChildren(...answer.metrics.map(m =>
    h('option', { value: m.name, title: m.description || '' }, `${m.name}${m.unitWords ? ` (${m.unitWords})` : ''}`)))).catch(e => message.show(e.message));

  async function plot() {
    try {
      message.show(null);
      await panel.add(jvm.value, metric.value, [...focus.values()]);
    } catch (e) {
      message.show(e.message);
    }
  }

  showFocus();
  root.append(h('div', { class: 'two-columns' },
    card('Hierarchies', h('label', {}, 'JVM ', jvm), tree),
    card('Focus and metric', h('p', { class: 'muted' }, 'click resources to constrain the focus (one per hierarchy; none is the whole program)'),
      focusLine, h('div', { class: 'row' }, h('label', {}, 'metric ', metric), h('button', { type: 'button', class: 'primary plot-button', onclick: plot }, 'plot')),
      message, plots)));
  return () => panel.removeAll();
}
