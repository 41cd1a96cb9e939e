// D3 charts: a line chart (series against an optional threshold) and a stacked area chart. Both
// downsample to the chart's width (min and max per pixel column) and redraw at most once per frame.
import { fmt } from './ui.js';

const d3 = window.d3;
const HOUR = 3600 * 1000;
const MARGIN = { top: 20, right: 12, bottom: 22, left: 56 };

/** Keeps, per pixel column of [t0, t1], the first, minimum and maximum point: the shape survives. */
export function downsample(points, t0, t1, columns) {
  if (points.length <= columns * 2 || t1 <= t0) {
    return points;
  }
  const out = [];
  const width = (t1 - t0) / columns;
  let bucket = -1;
  let min = null;
  let max = null;
  const flush = () => {
    if (min) {
      if (min[0] <= max[0]) {
        out.push(min);
        if (max !== min) out.push(max);
      } else {
        out.push(max, min);
      }
    }
  };
  for (const p of points) {
    const b = Math.floor((p[0] - t0) / width);
    if (b !== bucket) {
      flush();
      bucket = b;
      min = max = p;
    } else {
      if (p[1] < min[1]) min = p;
      if (p[1] > max[1]) max = p;
    }
  }
  flush();
  return out;
}

/**
 * A value axis whose ticks read as the rest of the page writes numbers (ui.js fmt: never scientific notation), with
 * the unit's words above it (the server's, e.g. "s per second"; none when the unit is not known).
 */
function valueAxis(f, y, unit) {
  f.yAxis.call(d3.axisLeft(y).ticks(5).tickFormat(v => fmt(v)));
  f.unit.text(unit || '');
}

function frame(container, width, height, cls) {
  const svg = d3.select(container).append('svg')
    .attr('class', `chart ${cls}`).attr('width', width).attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
  const g = svg.append('g').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
  const w = width - MARGIN.left - MARGIN.right;
  const hgt = height - MARGIN.top - MARGIN.bottom;
  const xAxis = g.append('g').attr('class', 'axis x').attr('transform', `translate(0,${hgt})`);
  const yAxis = g.append('g').attr('class', 'axis y');
  const unit = svg.append('text').attr('class', 'axis-unit').attr('x', 4).attr('y', MARGIN.top - 8);
  return { svg, g, w, h: hgt, xAxis, yAxis, unit };
}

function throttled(draw) {
  let pending = false;
  return () => {
    if (!pending) {
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        draw();
      });
    }
  };
}

const NICE_SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200];

/**
 * A time axis with whole-second ticks, labelled hh:mm:ss, about one per 90 pixels: never sub-second
 * labels such as ".500", whose neighbours would repeat the same second.
 */
function timeAxis(x, width) {
  const [t0, t1] = x.domain();
  const wanted = Math.max(2, Math.floor(width / 90));
  const raw = Math.max(1, (t1 - t0) / 1000 / wanted);
  const step = NICE_SECONDS.find(n => n >= raw) ?? Math.ceil(raw / 3600) * 3600;
  const interval = step >= 3600 ? d3.timeHour.every(step / 3600)
    : step >= 60 ? d3.timeMinute.every(step / 60) : d3.timeSecond.every(step);
  return d3.axisBottom(x).ticks(interval).tickFormat(d3.timeFormat('%H:%M:%S'));
}

/**
 * A line chart. series: [{name, points: [[atMillis, value], ...]}]; options.threshold draws a dashed
 * line; options.unit (the words the values are written with) labels the value axis, the legend and the
 * threshold; options.windowMillis keeps only that much history when points are appended live.
 */
export function lineChart(container, options = {}) {
  const width = options.width || 560;
  const height = options.height || 200;
  const f = frame(container, width, height, 'line-chart');
  const colour = d3.scaleOrdinal(d3.schemeTableau10);
  const thresholdLine = f.g.append('line').attr('class', 'threshold');
  const lines = f.g.append('g').attr('class', 'lines');
  const empty = f.g.append('text').attr('class', 'empty').attr('x', f.w / 2).attr('y', f.h / 2)
    .attr('text-anchor', 'middle').text(options.emptyText || 'no values yet');
  const legend = d3.select(container).append('div').attr('class', 'legend');
  let series = [];
  let threshold = options.threshold;
  const unit = options.unit || '';
  const inUnit = text => (unit ? `${text} ${unit}` : text);
  const windowMillis = options.windowMillis || HOUR;

  const draw = () => {
    const all = series.flatMap(s => s.points);
    empty.attr('display', all.length ? 'none' : null);
    const t0 = d3.min(all, p => p[0]) ?? Date.now() - 60000;
    const t1 = d3.max(all, p => p[0]) ?? Date.now();
    const x = d3.scaleTime().domain([t0, Math.max(t1, t0 + 1000)]).range([0, f.w]);
    const yMax = Math.max(d3.max(all, p => p[1]) ?? 0, threshold ?? 0) || 1;
    const y = d3.scaleLinear().domain([Math.min(0, d3.min(all, p => p[1]) ?? 0), yMax * 1.1]).nice().range([f.h, 0]);
    f.xAxis.call(timeAxis(x, f.w));
    valueAxis(f, y, unit);
    const line = d3.line().x(p => x(p[0])).y(p => y(p[1])).defined(p => p[1] !== null && Number.isFinite(p[1]));
    lines.selectAll('path').data(series, s => s.name).join('path')
      .attr('class', 'series').attr('stroke', s => colour(s.name))
      .attr('d', s => line(downsample(s.points, t0, t1, f.w)));
    if (threshold !== undefined && threshold !== null && Number.isFinite(threshold)) {
      thresholdLine.attr('display', null).attr('x1', 0).attr('x2', f.w).attr('y1', y(threshold)).attr('y2', y(threshold));
    } else {
      thresholdLine.attr('display', 'none');
    }
    legend.selectAll('span').data(series.concat(threshold != null ? [{ name: `threshold ${threshold}`, threshold: true }] : []), s => s.name)
      .join('span').attr('class', s => s.threshold ? 'key threshold' : 'key')
      .style('--key', s => s.threshold ? null : colour(s.name))
      .text(s => (s.threshold ? `threshold ${inUnit(fmt(threshold))}` : unit ? `${s.name} (${unit})` : s.name));
  };
  const redraw = throttled(draw);
  draw();
  return {
    svg: f.svg.node(),
    setSeries(list, newThreshold) {
      series = list;
      if (newThreshold !== undefined) threshold = newThreshold;
      redraw();
    },
    /** Adds one live point to the named series, dropping points older than the window. */
    push(name, atMillis, value) {
      let s = series.find(x => x.name === name);
      if (!s) {
        s = { name, points: [] };
        series.push(s);
      }
      s.points.push([atMillis, value]);
      const cut = atMillis - windowMillis;
      let drop = 0;
      while (drop < s.points.length && s.points[drop][0] < cut) drop++;
      if (drop > 0) s.points.splice(0, drop);
      redraw();
    },
    pointCount: () => series.reduce((n, s) => n + s.points.length, 0),
  };
}

/** A stacked area chart of shares over time; categories: [{key, label, kind}]; options.unit as for a line chart. */
export function stackedArea(container, categories, options = {}) {
  const width = options.width || 720;
  const height = options.height || 260;
  const f = frame(container, width, height, 'stacked-chart');
  const keys = categories.map(c => c.key);
  const appColours = d3.scaleOrdinal(['#4e79a7', '#76b7b2', '#59a14f']);
  const vmColours = d3.scaleOrdinal(['#e15759', '#f28e2b', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac', '#d37295']);
  const colour = key => {
    const c = categories.find(x => x.key === key);
    return c && c.kind === 'app' ? appColours(key) : vmColours(key);
  };
  const areas = f.g.append('g').attr('class', 'areas');
  const legend = d3.select(container).append('div').attr('class', 'legend');
  legend.selectAll('span').data(categories).join('span').attr('class', 'key')
    .style('--key', c => colour(c.key)).text(c => `${c.label} (${c.kind})`);
  const rows = [];
  const windowMillis = options.windowMillis || HOUR;

  const draw = () => {
    const t0 = rows.length ? rows[0].atMillis : Date.now() - 60000;
    const t1 = rows.length ? rows[rows.length - 1].atMillis : Date.now();
    const x = d3.scaleTime().domain([t0, Math.max(t1, t0 + 1000)]).range([0, f.w]);
    const sampled = thin(rows, f.w);
    const stacked = d3.stack().keys(keys).value((r, k) => r.shares[k] || 0)(sampled);
    const top = d3.max(stacked.length ? stacked[stacked.length - 1] : [], d => d[1]) || 1;
    const y = d3.scaleLinear().domain([0, Math.max(1, top)]).nice().range([f.h, 0]);
    f.xAxis.call(timeAxis(x, f.w));
    valueAxis(f, y, options.unit);
    const area = d3.area().x(d => x(d.data.atMillis)).y0(d => y(d[0])).y1(d => y(d[1]));
    areas.selectAll('path').data(stacked, s => s.key).join('path')
      .attr('class', 'area').attr('data-key', s => s.key).attr('fill', s => colour(s.key)).attr('d', area);
  };
  const redraw = throttled(draw);
  draw();
  return {
    svg: f.svg.node(),
    colour,
    push(atMillis, shares) {
      rows.push({ atMillis, shares });
      while (rows.length && rows[0].atMillis < atMillis - windowMillis) rows.shift();
      redraw();
    },
    rows: () => rows,
  };
}

/** Every n-th row so that at most ~one row per pixel column is drawn (shares are smooth enough). */
function thin(rows, columns) {
  if (rows.length <= columns) {
    return rows;
  }
  const step = rows.length / columns;
  const out = [];
  for (let i = 0; i < rows.length; i += step) out.push(rows[Math.floor(i)]);
  if (out[out.length - 1] !== rows[rows.length - 1]) out.push(rows[rows.length - 1]);
  return out;
}
