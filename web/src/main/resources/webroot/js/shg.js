// The search-history graph drawn with D3: a layered layout (one column per refinement depth, d3.tree over
// the first parent of every node, the DAG's other edges drawn on top), state as colour, why-edges solid
// and where-edges dashed, zoom and pan, collapsible subtrees, and filters: the paths to true nodes, or to a
// chosen set of nodes (a search's findings). Where a node has many false leaves below it (a hypothesis ruled out
// at every package), they are drawn as one box, "12 false: …", that shows them when clicked.
// Colours are written as attributes so an exported SVG looks the same outside the page.
import { focusLeaf, focusText, fmt } from './ui.js';

const d3 = window.d3;
// One colour language with the JVMs page and the exports (consultant's NodeState.colour()): red a problem,
// green none, ochre unknown, blue under test, greys not tested and stopped.
export const STATE_COLOURS = {
  untested: '#d0d0d0', testing: '#b3c7ec', true: '#e06666', false: '#b7e1c0', unknown: '#e3cf8f', stopped: '#ececec',
};
export const EDGE_STYLES = {
  why: { stroke: '#b8a21c', dash: null, label: 'why (more specific hypothesis)' },
  where: { stroke: '#a35bb0', dash: '6 4', label: 'where (more specific focus)' },
};
const ROW = 24;
const COLUMN = 290;
const BOX_W = 250;
const BOX_H = 18;
/** A node's false leaves are drawn as one group box from this many on. */
const GROUP_MIN = 6;

export function shgView(container, options = {}) {
  const nodes = new Map();
  let edges = [];
  const collapsed = new Set();
  /** The nodes whose false leaves the user opened (their group box clicked). */
  const ungrouped = new Set();
  let onlyTrue = false;
  let pathsTo = null;
  let selected = null;
  let userMoved = false;
  let pending = false;
  let lastRender = -1000;
  let bounds = { x: 0, y: 0, width: 0, height: 0 };
  const stats = { nodes: 0, millis: 0, renders: 0 };

  const svg = d3.select(container).append('svg').attr('class', 'shg')
    .attr('xmlns', 'http://www.w3.org/2000/svg').attr('width', '100%').attr('height', '100%');
  svg.append('defs').html(Object.entries(EDGE_STYLES).map(([axis, s]) =>
    `<marker id="arrow-${axis}" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="6" markerHeight="6" orient="auto">`
    + `<path d="M0,0L8,4L0,8z" fill="${s.stroke}"/></marker>`).join(''));
  const canvas = svg.append('g').attr('class', 'canvas');
  const edgeLayer = canvas.append('g').attr('class', 'edges').attr('fill', 'none').attr('stroke-width', 1.5);
  const nodeLayer = canvas.append('g').attr('class', 'nodes');
  const zoom = d3.zoom().scaleExtent([0.05, 4]).on('zoom', e => {
    canvas.attr('transform', e.transform);
    if (e.sourceEvent) userMoved = true;
  });
  svg.call(zoom).on('dblclick.zoom', null);

  /** One render per frame at most, and at most four a second while a live search floods events. */
  function schedule() {
    if (pending) return;
    pending = true;
    const wait = Math.max(0, lastRender + 250 - performance.now());
    setTimeout(() => requestAnimationFrame(() => {
      pending = false;
      lastRender = performance.now();
      render();
    }), wait);
  }

  function structure() {
    const incoming = new Map();
    const outgoing = new Map();
    for (const e of edges) {
      if (!nodes.has(e.from) || !nodes.has(e.to)) continue;
      if (!incoming.has(e.to)) incoming.set(e.to, []);
      if (!outgoing.has(e.from)) outgoing.set(e.from, []);
      incoming.get(e.to).push(e);
      outgoing.get(e.from).push(e);
    }
    return { incoming, outgoing };
  }

  /**
   * The nodes {@code ids} and every node that leads to one of them: along any edge, or ({@code firstOnly}) along
   * each node's first parent, the one the layout hangs it from.
   */
  function onPathsTo(incoming, ids, firstOnly) {
    const keep = new Set();
    const stack = [...ids].filter(id => nodes.has(id));
    while (stack.length) {
      const id = stack.pop();
      if (keep.has(id)) continue;
      keep.add(id);
      const parents = incoming.get(id) || [];
      for (const e of firstOnly ? parents.slice(0, 1) : parents) stack.push(e.from);
    }
    return keep;
  }

  function layout() {
    const { incoming, outgoing } = structure();
    const keep = onlyTrue ? onPathsTo(incoming, [...nodes.values()].filter(n => n.state === 'true').map(n => n.id))
      : pathsTo ? onPathsTo(incoming, pathsTo, true) : null;
    const visible = id => !keep || keep.has(id);
    const primaryParent = id => (incoming.get(id) || [])[0];
    const kids = id => (outgoing.get(id) || []).filter(e => primaryParent(e.to) === e && visible(e.to)).map(e => e.to);
    const roots = [...nodes.keys()].filter(id => !incoming.has(id) && visible(id));
    const hidden = new Map();
    const groups = new Map();
    const build = id => {
      const children = kids(id);
      if (collapsed.has(id)) {
        hidden.set(id, countBelow(id, kids));
        return { id, children: [] };
      }
      const quiet = children.filter(c => nodes.get(c).state === 'false' && kids(c).length === 0);
      if (quiet.length < GROUP_MIN || ungrouped.has(id)) {
        return { id, children: children.map(build) };
      }
      const key = `group-${id}`;
      const hypotheses = [...new Set(quiet.map(c => nodes.get(c).hypothesis))];
      groups.set(key, { id: key, group: true, parent: id, members: quiet, state: 'false', hypothesis: hypotheses.join(', '),
        focus: [], label: `${quiet.length} false: ${hypotheses.join(', ')}` });
      return { id, children: [...children.filter(c => !quiet.includes(c)).map(build), { id: key, children: [] }] };
    };
    const tree = { id: -1, children: roots.map(build) };
    const root = d3.hierarchy(tree);
    d3.tree().nodeSize([ROW, COLUMN]).separation((a, b) => (a.parent === b.parent ? 1 : 1.3))(root);
    const placed = new Map();
    root.each(d => {
      if (d.data.id !== -1) placed.set(d.data.id, { x: (d.depth - 1) * COLUMN, y: d.x, node: nodes.get(d.data.id) || groups.get(d.data.id) });
    });
    const links = edges.filter(e => placed.has(e.from) && placed.has(e.to))
      .concat([...groups.values()].filter(g => placed.has(g.id)).map(g => ({ from: g.parent, to: g.id, axis: 'where', group: true })));
    const grouped = [...groups.values()].reduce((n, g) => n + g.members.length, 0);
    const hasKids = id => (outgoing.get(id) || []).some(e => visible(e.to));
    return { placed, links, hidden, hasKids, primaryParent: id => (groups.has(id) ? undefined : primaryParent(id)), grouped, groups: groups.size };
  }

  function render() {
    const started = performance.now();
    const { placed, links, hidden, hasKids, primaryParent, grouped, groups: groupCount } = layout();
    const primary = e => e.group || primaryParent(e.to) === e;
    const linkPath = e => {
      const a = placed.get(e.from);
      const b = placed.get(e.to);
      const x1 = a.x + BOX_W;
      const x2 = b.x - 2;
      const mid = (x1 + x2) / 2;
      return `M${x1},${a.y}C${mid},${a.y} ${mid},${b.y} ${x2},${b.y}`;
    };
    edgeLayer.selectAll('path').data(links, e => `${e.from}-${e.to}`).join('path')
      .attr('class', e => `edge ${e.axis}${primary(e) ? '' : ' extra'}`)
      .attr('data-axis', e => e.axis)
      .attr('stroke', e => (EDGE_STYLES[e.axis] || EDGE_STYLES.why).stroke)
      .attr('stroke-dasharray', e => (EDGE_STYLES[e.axis] || EDGE_STYLES.why).dash)
      .attr('stroke-opacity', e => (primary(e) ? 0.9 : 0.45))
      .attr('marker-end', e => `url(#arrow-${e.axis})`)
      .attr('d', linkPath);

    const data = [...placed.values()];
    const groups = nodeLayer.selectAll('g.node').data(data, d => d.node.id).join(enter => {
      const g = enter.append('g').attr('class', 'node');
      g.append('rect').attr('width', BOX_W).attr('height', BOX_H).attr('y', -BOX_H / 2).attr('rx', 3)
        .attr('stroke', '#555').attr('stroke-width', 0.7);
      g.append('text').attr('class', 'label').attr('x', 5).attr('dy', '0.35em')
        .attr('font-size', 11).attr('font-family', 'sans-serif').attr('fill', '#111');
      g.append('title');
      const toggle = g.append('g').attr('class', 'toggle').attr('transform', `translate(${BOX_W + 8},0)`);
      toggle.append('circle').attr('r', 6).attr('fill', '#fff').attr('stroke', '#555');
      toggle.append('text').attr('text-anchor', 'middle').attr('dy', '0.35em').attr('font-size', 10).attr('font-family', 'sans-serif');
      toggle.append('title');
      g.on('click', (event, d) => {
        event.stopPropagation();
        if (d.node.group) {
          ungrouped.add(d.node.parent);
          schedule();
        } else {
          select(d.node.id);
        }
      });
      toggle.on('click', (event, d) => {
        event.stopPropagation();
        toggleCollapsed(d.node.id);
      });
      return g;
    });
    groups.attr('transform', d => `translate(${d.x},${d.y})`)
      .attr('data-id', d => d.node.id)
      .attr('data-state', d => d.node.state)
      .attr('data-hypothesis', d => d.node.hypothesis)
      .attr('data-focus', d => focusText(d.node.focus))
      .attr('data-group', d => (d.node.group ? d.node.members.length : null))
      .classed('group', d => !!d.node.group)
      .classed('selected', d => d.node.id === selected);
    groups.select('rect').attr('fill', d => STATE_COLOURS[d.node.state] || '#fff')
      .attr('stroke-width', d => (d.node.id === selected ? 2.5 : 0.7))
      .attr('stroke-dasharray', d => (d.node.group ? '3 2' : null));
    groups.select('text.label').text(d => clip(d.node.group ? d.node.label : `${d.node.hypothesis} · ${focusLeaf(d.node.focus)}`, 42));
    groups.select('title').text(d => (d.node.group
      ? `${d.node.label}\n${d.node.members.map(id => focusLeaf(nodes.get(id).focus)).join(', ')}\nclick to show them`
      : `${d.node.hypothesis} at ${focusText(d.node.focus)}\n${d.node.state}`
        + (d.node.value != null ? `  ${fmt(d.node.value)} / ${fmt(d.node.threshold)}` : '')
        + (d.node.reason ? `\n${d.node.reason}` : '')));
    const toggles = groups.select('g.toggle').attr('display', d => (hasKids(d.node.id) ? null : 'none'))
      .attr('data-collapsed', d => collapsed.has(d.node.id));
    toggles.select('text').text(d => (collapsed.has(d.node.id) ? '+' : '−'));
    toggles.select('title').text(d => (collapsed.has(d.node.id) ? `expand (${hidden.get(d.node.id) || 0} hidden)` : 'collapse'));
    bounds = extent(data);
    if (!userMoved) fit();
    stats.nodes = data.length - groupCount;
    stats.millis = performance.now() - started;
    stats.renders++;
    svg.attr('data-rendered-nodes', data.length - groupCount).attr('data-grouped-nodes', grouped)
      .attr('data-groups', groupCount).attr('data-render-millis', stats.millis.toFixed(1))
      .attr('data-renders', stats.renders);
    if (options.onRender) options.onRender(stats);
  }

  function fit() {
    const box = bounds;
    const el = svg.node();
    const width = el.clientWidth || 800;
    const height = el.clientHeight || 500;
    if (!box.width || !box.height) return;
    const k = Math.min(2, 0.95 * Math.min(width / (box.width + 40), height / (box.height + 40)));
    const scale = Math.max(k, 0.05);
    const t = d3.zoomIdentity.translate(width / 2 - scale * (box.x + box.width / 2), height / 2 - scale * (box.y + box.height / 2)).scale(scale);
    svg.call(zoom.transform, t);
  }

  /** Selecting a node keeps the view where it is: live nodes no longer refit it under the pointer. */
  function select(id) {
    selected = id;
    userMoved = true;
    schedule();
    if (options.onSelect) options.onSelect(nodes.get(id));
  }

  function toggleCollapsed(id) {
    if (collapsed.has(id)) collapsed.delete(id); else collapsed.add(id);
    schedule();
  }

  return {
    svg: svg.node(),
    setGraph(graph) {
      nodes.clear();
      for (const n of graph.nodes || []) nodes.set(n.id, n);
      edges = (graph.edges || []).slice();
      schedule();
    },
    /** Applies one live SHG event (nodeAdded, nodeChanged, edgeAdded). */
    apply(event) {
      if (event.type === 'nodeAdded' || event.type === 'nodeChanged') {
        nodes.set(event.node.id, event.node);
        schedule();
        if (event.node.id === selected && options.onSelectedChanged) options.onSelectedChanged(event.node);
      } else if (event.type === 'edgeAdded') {
        if (!edges.some(e => e.from === event.edge.from && e.to === event.edge.to)) edges.push(event.edge);
        schedule();
      }
    },
    setOnlyTrue(value) {
      onlyTrue = value;
      if (value) pathsTo = null;
      userMoved = false;
      schedule();
    },
    /** Draws only the nodes {@code ids} and the paths to them (null: every node). */
    showPathsTo(ids) {
      pathsTo = ids ? [...ids] : null;
      if (ids) onlyTrue = false;
      userMoved = false;
      schedule();
    },
    collapseAll(depth) {
      const { outgoing } = structure();
      collapsed.clear();
      const walk = (id, d) => {
        if (d >= depth && (outgoing.get(id) || []).length) collapsed.add(id);
        for (const e of outgoing.get(id) || []) if (d < depth) walk(e.to, d + 1);
      };
      [...nodes.keys()].filter(id => ![...edges].some(e => e.to === id)).forEach(id => walk(id, 0));
      userMoved = false;
      schedule();
    },
    expandAll() {
      collapsed.clear();
      ungrouped.clear();
      userMoved = false;
      schedule();
    },
    fit() {
      userMoved = false;
      fit();
    },
    select,
    node: id => nodes.get(id),
    nodes: () => [...nodes.values()],
    edges: () => edges,
    stats,
  };
}

/** The drawing's box from the layout itself (no getBBox: that would force the browser to lay out first). */
function extent(placed) {
  if (!placed.length) return { x: 0, y: 0, width: 0, height: 0 };
  const xs = placed.map(p => p.x);
  const ys = placed.map(p => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys) - BOX_H;
  return { x, y, width: Math.max(...xs) + BOX_W + 20 - x, height: Math.max(...ys) + BOX_H - y };
}

function countBelow(id, kids) {
  let n = 0;
  const stack = [...kids(id)];
  while (stack.length) {
    const k = stack.pop();
    n++;
    stack.push(...kids(k));
  }
  return n;
}

function clip(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The legend: node states as colours, edge kinds as lines. */
export function shgLegend() {
  const states = Object.entries(STATE_COLOURS).map(([s, c]) =>
    `<span class="key-state"><i style="background:${c}"></i>${s}</span>`).join('');
  const axes = Object.entries(EDGE_STYLES).map(([axis, s]) =>
    `<span class="key-edge"><svg width="34" height="8"><line x1="0" y1="4" x2="34" y2="4" stroke="${s.stroke}" stroke-width="2"`
    + `${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/></svg>${s.label}</span>`).join('');
  const div = document.createElement('div');
  div.className = 'shg-legend';
  div.innerHTML = states + axes;
  return div;
}

/** The graph's SVG as a standalone file (colours are attributes, so it needs no style sheet). */
export function svgText(svgElement) {
  const clone = svgElement.cloneNode(true);
  const box = svgElement.querySelector('g.canvas').getBBox();
  clone.querySelector('g.canvas').removeAttribute('transform');
  clone.setAttribute('viewBox', `${box.x - 10} ${box.y - 10} ${box.width + 20} ${box.height + 20}`);
  clone.setAttribute('width', Math.ceil(box.width + 20));
  clone.setAttribute('height', Math.ceil(box.height + 20));
  return new XMLSerializer().serializeToString(clone);
}
