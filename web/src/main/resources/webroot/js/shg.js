// The search-history graph drawn with D3 from the layout the server computes (GET /api/searches/{id}/view: ELK
// Layered, the same view and layout the SVG export draws): boxes in their states' colours, why-lines solid and
// where-lines dashed along the routes ELK gave them, zoom and pan, a click selects a node, the toggle at a box's
// right collapses or expands what hangs below it, and a group box ("12 false: …", a node's many false leaves)
// opens on click. Fitting never draws the labels smaller than LABEL_PX: a graph larger than the window at that
// size shows its top (the left, where the top-level node is) and is dragged or scrolled to the rest. What is
// drawn (filter, collapsed nodes, opened groups) is asked of the server; a live search asks again as its graph
// changes, at most four times a second. Colours are written as attributes so a drawn graph saved as SVG looks the
// same outside the page.
import { get, q } from './api.js';
import { focusText } from './ui.js';

const d3 = window.d3;
/** Room at a box's right for its toggle (ShgLayout.TOGGLE), and the toggle's radius. */
const TOGGLE = 18;
const TOGGLE_RADIUS = 6;
/** A label's font size in the drawing, and the smallest it is shown at when the graph is fitted to the window. */
const FONT_PX = 11;
const LABEL_PX = 11;
/** At most one request a quarter of a second, one at a time. */
const THROTTLE_MILLIS = 250;

export function shgView(container, options = {}) {
  const { searchId } = options;
  let show = null;
  let depth = 0;
  const collapsed = new Set();
  const expanded = new Set();
  /** The nodes whose false leaves the user opened (their group box clicked). */
  const opened = new Set();
  let selected = null;
  let userMoved = false;
  let inFlight = false;
  let again = false;
  let lastRequest = -1000;
  let timer = null;
  let view = null;
  let legend = null;
  const stats = { nodes: 0, millis: 0, renders: 0 };

  const svg = d3.select(container).append('svg').attr('class', 'shg')
    .attr('xmlns', 'http://www.w3.org/2000/svg').attr('width', '100%').attr('height', '100%');
  const defs = svg.append('defs');
  const canvas = svg.append('g').attr('class', 'canvas');
  const edgeLayer = canvas.append('g').attr('class', 'edges').attr('fill', 'none').attr('stroke-width', 1.5);
  const nodeLayer = canvas.append('g').attr('class', 'nodes');
  const hint = svg.append('text').attr('class', 'hint').attr('x', 8).attr('font-size', 12).attr('fill', '#666')
    .attr('display', 'none').text('drag or scroll to see the rest of the graph; ctrl + wheel zooms');
  // the wheel scrolls the drawing (shift + wheel sideways), ctrl + wheel zooms; a drag pans
  const zoom = d3.zoom().scaleExtent([0.05, 4])
    .filter(e => (e.type === 'wheel' ? e.ctrlKey || e.metaKey : !e.ctrlKey && !e.button))
    .on('zoom', e => {
      canvas.attr('transform', e.transform);
      if (e.sourceEvent) userMoved = true;
    });
  svg.call(zoom).on('dblclick.zoom', null).on('wheel.scroll', e => {
    if (e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const k = d3.zoomTransform(svg.node()).k;
    const [dx, dy] = e.shiftKey && !e.deltaX ? [e.deltaY, 0] : [e.deltaX, e.deltaY];
    zoom.translateBy(svg, -dx / k, -dy / k);
    userMoved = true;
  });

  /** Asks for the view again: now if the last request is a quarter of a second old, else then; one at a time. */
  function request() {
    if (inFlight) {
      again = true;
      return;
    }
    if (timer) return;
    timer = setTimeout(fetchView, Math.max(0, lastRequest + THROTTLE_MILLIS - performance.now()));
  }

  /** What is drawn as query parameters ("show=all", "collapsed=3,5", …), as /view and the SVG export take them. */
  function viewParams() {
    const ids = set => [...set].join(',');
    const params = [];
    if (show) params.push(`show=${q(show)}`);
    if (depth) params.push(`depth=${depth}`);
    if (collapsed.size) params.push(`collapsed=${ids(collapsed)}`);
    if (expanded.size) params.push(`expanded=${ids(expanded)}`);
    if (opened.size) params.push(`open=${ids(opened)}`);
    return params;
  }

  function query() {
    const params = viewParams();
    return params.length ? `?${params.join('&')}` : '';
  }

  async function fetchView() {
    timer = null;
    inFlight = true;
    lastRequest = performance.now();
    const started = lastRequest;
    try {
      const answer = await get(`/api/searches/${q(searchId)}/view${query()}`);
      const first = view === null;
      view = answer;
      // the filter stays what the first answer chose, though the graph grows past the size that chose it
      show = answer.show;
      if (first && options.onFirstView) options.onFirstView(answer);
      render(started);
      if (options.onView) options.onView(viewParams());
    } catch (e) {
      if (options.onError) options.onError(e);
    } finally {
      inFlight = false;
      if (again) {
        again = false;
        request();
      }
    }
  }

  function render(started) {
    if (!legend) {
      legend = view.legend;
      defs.html(Object.entries(legend.lines).map(([axis, s]) =>
        `<marker id="arrow-${axis}" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="6" markerHeight="6" orient="auto">`
        + `<path d="M0,0L8,4L0,8z" fill="${s.stroke}"/></marker>`).join(''));
      if (options.legend) fillLegend(options.legend, legend);
    }
    const lineStyle = axis => legend.lines[axis] || legend.lines.why;
    edgeLayer.selectAll('path').data(view.lines, l => `${l.from}-${l.to}`).join('path')
      .attr('class', l => `edge ${l.axis}${l.primary ? '' : ' extra'}`)
      .attr('data-axis', l => l.axis)
      .attr('stroke', l => lineStyle(l.axis).stroke)
      .attr('stroke-dasharray', l => lineStyle(l.axis).dash)
      .attr('stroke-opacity', l => (l.primary ? 0.9 : 0.45))
      .attr('marker-end', l => `url(#arrow-${l.axis})`)
      .attr('d', l => l.points.map((p, i) => `${i ? 'L' : 'M'}${p[0]},${p[1]}`).join(''));

    const boxes = nodeLayer.selectAll('g.node').data(view.boxes, b => b.key).join(enter => {
      const g = enter.append('g').attr('class', 'node');
      g.append('rect').attr('rx', 3).attr('stroke', '#555').attr('stroke-width', 0.7);
      g.append('text').attr('class', 'label').attr('x', 6).attr('dy', '0.35em').attr('fill', '#111')
        .attr('font-size', FONT_PX).attr('font-family', 'Helvetica, Arial, \'Liberation Sans\', sans-serif');
      g.append('title');
      const toggle = g.append('g').attr('class', 'toggle');
      toggle.append('circle').attr('r', TOGGLE_RADIUS).attr('fill', '#fff').attr('stroke', '#555');
      toggle.append('text').attr('text-anchor', 'middle').attr('dy', '0.35em').attr('font-size', 10).attr('font-family', 'sans-serif');
      toggle.append('title');
      g.on('click', (event, b) => {
        event.stopPropagation();
        if (b.members) {
          opened.add(b.parent);
          request();
        } else {
          select(b.id);
        }
      });
      toggle.on('click', (event, b) => {
        event.stopPropagation();
        toggleCollapsed(b);
      });
      return g;
    });
    boxes.attr('transform', b => `translate(${b.x},${b.y})`)
      .attr('data-id', b => b.key)
      .attr('data-state', b => b.state)
      .attr('data-hypothesis', b => (b.members ? null : b.hypothesis))
      .attr('data-focus', b => (b.members ? null : focusText(b.focus)))
      .attr('data-group', b => (b.members ? b.members.length : null))
      .classed('group', b => !!b.members)
      .classed('selected', b => b.id === selected);
    boxes.select('rect').attr('width', b => b.width).attr('height', b => b.height)
      .attr('fill', b => legend.states[b.state] || '#fff')
      .attr('stroke-width', b => (b.id === selected ? 2.5 : 0.7))
      .attr('stroke-dasharray', b => (b.members ? '3 2' : null));
    boxes.select('text.label').attr('y', b => b.height / 2).text(b => b.label);
    boxes.select('title').text(b => b.title);
    const toggles = boxes.select('g.toggle').attr('display', b => (b.collapsible ? null : 'none'))
      .attr('transform', b => `translate(${b.width - TOGGLE / 2},${b.height / 2})`)
      .attr('data-collapsed', b => b.collapsed);
    toggles.select('text').text(b => (b.collapsed ? '+' : '−'));
    toggles.select('title').text(b => (b.collapsed ? `expand (${b.hidden} hidden)` : 'collapse'));
    if (!userMoved) fit();
    const groups = view.boxes.length - view.drawnNodes;
    stats.nodes = view.drawnNodes;
    stats.millis = performance.now() - started;
    stats.renders++;
    svg.attr('data-rendered-nodes', view.drawnNodes).attr('data-grouped-nodes', view.groupedNodes)
      .attr('data-groups', groups).attr('data-render-millis', stats.millis.toFixed(1))
      .attr('data-renders', stats.renders).attr('data-show', view.show);
    if (options.onRender) options.onRender(stats);
  }

  /**
   * The whole graph in the window, centred, when its labels stay LABEL_PX or larger; else the graph at that size,
   * from its left edge (the top-level node), centred on the top-level node's height, and a hint to scroll.
   */
  function fit() {
    const el = svg.node();
    const width = el.clientWidth || 800;
    const height = el.clientHeight || 500;
    if (!view || !view.width || !view.height) return;
    const whole = Math.min(2, 0.98 * Math.min(width / view.width, height / view.height));
    const scale = Math.max(whole, LABEL_PX / FONT_PX);
    const margin = 10;
    const x = scale * view.width <= width ? (width - scale * view.width) / 2 : margin;
    let y = (height - scale * view.height) / 2;
    if (scale * view.height > height) {
      const top = view.boxes.find(b => b.hypothesis === 'top') || view.boxes[0];
      const centre = top ? top.y + top.height / 2 : 0;
      y = Math.min(margin, Math.max(height - margin - scale * view.height, height / 2 - scale * centre));
    }
    svg.call(zoom.transform, d3.zoomIdentity.translate(x, y).scale(scale));
    const partial = scale > whole;
    hint.attr('display', partial ? null : 'none').attr('y', height - 8);
    svg.attr('data-fit', partial ? 'partial' : 'whole');
  }

  /**
   * Selecting a node keeps the view where it is (live nodes no longer refit it under the pointer), but for a node
   * outside the window, which is brought to its middle at the same size.
   */
  function select(id) {
    selected = id;
    userMoved = true;
    nodeLayer.selectAll('g.node').classed('selected', b => b.id === selected)
      .select('rect').attr('stroke-width', b => (b.id === selected ? 2.5 : 0.7));
    reveal(view && view.boxes.find(b => b.id === id));
    if (options.onSelect) options.onSelect({ id });
  }

  function reveal(box) {
    if (!box) return;
    const el = svg.node();
    const t = d3.zoomTransform(el);
    const [x0, y0] = t.apply([box.x, box.y]);
    const [x1, y1] = t.apply([box.x + box.width, box.y + box.height]);
    if (x0 < 0 || y0 < 0 || x1 > el.clientWidth || y1 > el.clientHeight) {
      svg.call(zoom.translateTo, box.x + box.width / 2, box.y + box.height / 2);
    }
  }

  function toggleCollapsed(b) {
    if (b.collapsed) {
      collapsed.delete(b.id);
      expanded.add(b.id);
    } else {
      collapsed.add(b.id);
      expanded.delete(b.id);
    }
    request();
  }

  /** A new question of what to draw: the drawing is fitted to the window again. */
  function redraw() {
    userMoved = false;
    request();
  }

  request();
  return {
    svg: svg.node(),
    /** The search's graph changed (a live event): asks for the view again, throttled. */
    changed: request,
    /** Draws the nodes {@code value} names: all, true (the paths to true nodes) or findings (the paths to them). */
    setShow(value) {
      show = value;
      redraw();
    },
    /** Collapses every subtree from {@code d} deep on (0: none), forgetting the nodes toggled and groups opened. */
    collapseBelow(d) {
      depth = d;
      collapsed.clear();
      expanded.clear();
      opened.clear();
      redraw();
    },
    fit() {
      userMoved = false;
      fit();
    },
    select,
    stats,
  };
}

/** The legend's place: a view given it ({@code options.legend}) fills it from its first answer. */
export function shgLegend() {
  const div = document.createElement('div');
  div.className = 'shg-legend';
  return div;
}

/** Node states as colours, edge kinds as lines, in the colours the server's view carries. */
function fillLegend(div, legend) {
  const states = Object.entries(legend.states).map(([s, c]) =>
    `<span class="key-state"><i style="background:${c}"></i>${s}</span>`).join('');
  const axes = Object.values(legend.lines).map(s =>
    `<span class="key-edge"><svg width="34" height="8"><line x1="0" y1="4" x2="34" y2="4" stroke="${s.stroke}" stroke-width="2"`
    + `${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/></svg>${s.label}</span>`).join('');
  div.innerHTML = states + axes;
}

/** The graph's SVG as a standalone file (colours are attributes, so it needs no style sheet). */
export function svgText(svgElement) {
  const clone = svgElement.cloneNode(true);
  const box = svgElement.querySelector('g.canvas').getBBox();
  clone.querySelector('g.canvas').removeAttribute('transform');
  clone.querySelector('text.hint')?.remove();
  clone.setAttribute('viewBox', `${box.x - 10} ${box.y - 10} ${box.width + 20} ${box.height + 20}`);
  clone.setAttribute('width', Math.ceil(box.width + 20));
  clone.setAttribute('height', Math.ceil(box.height + 20));
  return new XMLSerializer().serializeToString(clone);
}
