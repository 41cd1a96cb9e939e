// A flame graph of a daemon's sampled stacks (GET /api/jvms/{id}/stacks): the outermost frame at the bottom,
// each frame as wide as the samples through it, laid out by D3's partition layout (d3-hierarchy), the layout
// flame graph libraries are built on. The program's own code is drawn warm, the platform's (java., jdk., sun.,
// com.sun.) grey; clicking a frame zooms into it and proposes its method as a focus; a method can be
// highlighted wherever it is on the stacks (a finding's), and the graph can say what it shows (a finding's flame graph:
// its samples through its code, as the server words it). Given a baseline (another search's stacks of the same
// kind), it is a differential flame graph: each frame coloured by how its share of the samples changed against the
// baseline, red where it grew, blue where it shrank, pale where it stayed.
import { h } from './ui.js';

const d3 = window.d3;
const ROW = 17;
const PLATFORM = /^\/Code\/(java|javax|jdk|sun|com\.sun)(\.|\/)/;

/** Short words for a frame's method: Class.method() for /Code/pkg/Class/method(desc)ret. */
export function frameName(method) {
  const parts = method.replace(/\+0x[0-9a-fA-F]+([./]\d+)?(?=\/)/, '').split('/').filter(Boolean);
  if (parts.length <= 1) return 'all';
  if (parts.length < 4) return `${parts[1]}${parts[2] ? `.${parts[2].replace(/\(.*$/, '()')}` : ''}`;
  return `${parts[2]}.${parts.slice(3).join('/').replace(/\(.*$/, '()')}`;
}

/** The flame graph in {@code container}; {@code onPick(method)} hears of the frame clicked. */
export function flameGraph(container, { onPick } = {}) {
  const title = h('div', { class: 'flame-title', hidden: true });
  container.append(title);
  const svg = d3.select(container).append('svg').attr('class', 'flame').attr('width', '100%');
  const info = h('div', { class: 'flame-info muted' }, 'hover a frame for its samples; click one to zoom in');
  container.append(info);
  let root = null;
  let zoomed = null;
  let highlighted = null;
  /** The baseline's share of the samples by stack (the methods from the root, joined), or null. */
  let baseline = null;
  /** Whether the counts are microseconds waited (the wait graph) rather than samples. */
  let waited = false;

  /** A count in words: "12 samples", or for the wait graph the time waited ("1.4 s waited"). */
  function amount(n) {
    if (!waited) return `${n} samples`;
    if (n < 1000) return `${n} µs waited`;
    return n < 1e6 ? `${(n / 1000).toFixed(n < 1e4 ? 1 : 0)} ms waited` : `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)} s waited`;
  }

  function build(stacks) {
    const nodes = stacks.frames.map(f => ({ method: f.method, total: f.total, self: f.self, children: [] }));
    stacks.frames.forEach((f, i) => {
      nodes[i].key = f.parent >= 0 ? `${nodes[f.parent].key}\n${f.method}` : '';
      if (f.parent >= 0) nodes[f.parent].children.push(nodes[i]);
    });
    const top = nodes[0];
    const hierarchy = d3.hierarchy(top)
      .sum(d => Math.max(0, d.total - d.children.reduce((s, c) => s + c.total, 0)))
      .sort((a, b) => b.value - a.value);
    return d3.partition().size([1, 1]).padding(0)(hierarchy);
  }

  function draw() {
    svg.selectAll('*').remove();
    if (!root || !root.value) {
      svg.attr('height', 40).append('text').attr('x', 8).attr('y', 24).attr('class', 'empty').text('no samples yet');
      return;
    }
    const width = container.clientWidth || 1000;
    const focus = zoomed || root;
    const x = d3.scaleLinear().domain([focus.x0, focus.x1]).range([0, width]);
    const visible = root.descendants().filter(d => d.x1 > focus.x0 && d.x0 < focus.x1 && x(Math.min(d.x1, focus.x1)) - x(Math.max(d.x0, focus.x0)) >= 0.5);
    const depth = d3.max(visible, d => d.depth) || 0;
    const height = (depth + 1) * ROW;
    svg.attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
    const g = svg.selectAll('g.frame').data(visible).join('g')
      .attr('class', 'frame')
      .attr('data-method', d => d.data.method)
      .attr('transform', d => `translate(${x(Math.max(d.x0, focus.x0))},${height - (d.depth + 1) * ROW})`)
      .attr('data-change', d => (baseline ? change(d).toFixed(4) : null))
      .on('mouseover', (e, d) => {
        info.textContent = `${d.depth === 0 ? 'all stacks' : d.data.method}: ${amount(d.data.total)} `
          + `(${(100 * d.data.total / root.data.total).toFixed(1)}%), ${amount(d.data.self)} on top`
          + (baseline ? `; ${(100 * (baseline.get(d.data.key) || 0)).toFixed(1)}% in the baseline` : '');
      })
      .on('click', (e, d) => {
        zoomed = d.depth === 0 || d === zoomed ? null : d;
        draw();
        if (onPick && d.depth > 0) onPick(d.data.method);
      });
    g.append('rect')
      .attr('width', d => Math.max(0.5, x(Math.min(d.x1, focus.x1)) - x(Math.max(d.x0, focus.x0)) - 0.5))
      .attr('height', ROW - 1)
      .attr('fill', d => colour(d))
      .attr('stroke', d => (highlighted && d.data.method === highlighted ? '#000' : null))
      .attr('stroke-width', d => (highlighted && d.data.method === highlighted ? 2 : null))
      .attr('opacity', d => (highlighted && d.depth > 0 && !onPath(d) ? 0.35 : 1));
    g.append('title').text(d => `${d.depth === 0 ? 'all' : d.data.method}\n${amount(d.data.total)}, ${amount(d.data.self)} on top`
      + (baseline ? `\n${signed(100 * change(d))} points of the samples against the baseline` : ''));
    g.append('text').attr('x', 3).attr('y', ROW - 5)
      .text(d => clip(d.depth === 0 ? 'all' : frameName(d.data.method), x(Math.min(d.x1, focus.x1)) - x(Math.max(d.x0, focus.x0))));
    svg.attr('data-frames', visible.length);
  }

  /** Whether a frame is, or lies above or below, a highlighted method's frame. */
  function onPath(d) {
    return d.ancestors().some(a => a.data.method === highlighted) || d.descendants().some(c => c.data.method === highlighted);
  }

  /** How the frame's share of the samples changed against the baseline (-1 .. 1). */
  function change(d) {
    return d.data.total / root.data.total - (baseline.get(d.data.key) || 0);
  }

  function colour(d) {
    if (d.depth === 0) return '#c8c8c8';
    if (baseline) {
      const c = change(d);
      const t = Math.min(1, Math.abs(c) / 0.2);
      return Math.abs(c) < 0.005 ? 'hsl(0, 0%, 88%)' : `hsl(${c > 0 ? 0 : 215}, 75%, ${92 - 42 * t}%)`;
    }
    const hash = [...d.data.method].reduce((s, c) => (s * 31 + c.charCodeAt(0)) | 0, 7);
    const shade = Math.abs(hash) % 40;
    return PLATFORM.test(d.data.method) ? `hsl(210, 10%, ${70 + shade / 4}%)` : `hsl(${10 + shade}, 80%, ${62 + shade / 8}%)`;
  }

  return {
    element: svg.node(),
    /**
     * Draws {@code stacks} ({"graph", "samples", "frames"}; the wait graph's counts are microseconds), keeping a
     * highlight; with {@code base} (stacks of the same kind), each frame coloured by how its share changed against it.
     */
    set(stacks, base) {
      waited = !!stacks && stacks.graph === 'wait';
      root = stacks && stacks.frames && stacks.frames.length ? build(stacks) : null;
      baseline = base && base.frames && base.frames.length ? shares(build(base)) : null;
      svg.attr('data-diff', baseline ? 'true' : null);
      zoomed = null;
      draw();
    },
    /** Says above the graph what it shows ("CPU samples through com.acme.Cache.get(Object)"); null says nothing. */
    describe(text) {
      title.textContent = text || '';
      title.hidden = !text;
    },
    /** Marks every frame of {@code method} (a /Code method path) and dims the stacks without it; null clears. */
    highlight(method) {
      highlighted = method;
      draw();
    },
    redraw: draw,
  };
}

/** Each stack's share of the samples in a built tree, by its key. */
function shares(tree) {
  const all = tree.data.total || 1;
  const byKey = new Map();
  tree.each(d => byKey.set(d.data.key, d.data.total / all));
  return byKey;
}

function signed(x) {
  return `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
}

function clip(text, width) {
  const chars = Math.floor((width - 6) / 6.5);
  if (chars < 3) return '';
  return text.length > chars ? `${text.slice(0, chars - 1)}…` : text;
}
