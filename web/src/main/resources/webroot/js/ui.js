// Small DOM helpers shared by the pages.
import { get } from './api.js';

/** h('div', {class: 'x', onclick: f}, 'text', child) */
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) {
      continue;
    }
    if (k.startsWith('on')) {
      e.addEventListener(k.slice(2), v);
    } else if (k === 'dataset') {
      Object.assign(e.dataset, v);
    } else if (v === true) {
      e.setAttribute(k, '');
    } else {
      e.setAttribute(k, v);
    }
  }
  append(e, children);
  return e;
}

function append(e, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) {
      continue;
    }
    if (Array.isArray(c)) {
      append(e, c);
    } else {
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  }
}

/** A message line that shows an error (or clears itself with null). */
export function messageLine(cls) {
  const e = h('div', { class: `message ${cls || ''}`, role: 'status' });
  e.show = (text, kind) => {
    e.textContent = text || '';
    e.className = `message ${cls || ''} ${kind || 'error'}`;
    e.hidden = !text;
  };
  e.hidden = true;
  return e;
}

/** Focus as the JSON list of constrained paths, written Paradyn's way: <a, b>; <> is the whole program. */
export function focusText(focus) {
  if (typeof focus === 'string') {
    return focus;
  }
  return `<${(focus || []).join(', ')}>`;
}

/**
 * A focus field's text as the API takes it: a place written as Java writes it (com.acme.Cache::get,
 * com.acme.Cache.get(Object), a class, a package) as it is, for the service to resolve in the JVM; paths as "<a, b>".
 */
export function focusInput(text) {
  const t = text.trim();
  return t !== '' && !t.startsWith('<') && !t.startsWith('/') ? t : focusText(parseFocus(t));
}

/** Parses "<a, b>" or "a, b" (or "" for the whole program) into a list of paths. */
export function parseFocus(text) {
  const inner = text.trim().replace(/^</, '').replace(/>$/, '').trim();
  return inner ? inner.split(/\s*,\s*(?=\/)/).map(s => s.trim()) : [];
}

/**
 * A focus in short words that say which hierarchy each part is of: "Class.burn()" for /Code/pkg/Class/burn()J,
 * "thread main", "pool request", "monitor AuditLog", "objects of byte[]", "file /tmp/x"; "whole program" for <>.
 */
export function focusLeaf(focus) {
  const paths = Array.isArray(focus) ? focus : parseFocus(focus || '');
  if (paths.length === 0) {
    return 'whole program';
  }
  return paths.map(partWords).join(' · ');
}

function partWords(path) {
  const parts = path.split('/').filter(Boolean);
  const [root, ...rest] = parts;
  const last = rest[rest.length - 1];
  const simple = name => name.replace(/\+0x[0-9a-fA-F]+([./]\d+)?$/, '').split('.').pop();
  if (rest.length === 0) return `/${root || ''}`;
  switch (root) {
    case 'Code':
      if (rest.length === 1) return `package ${rest[0]}`;
      if (rest.length === 2) return `class ${simple(rest[1])}`;
      return `${simple(rest[1])}.${rest.slice(2).join('/').replace(/\(.*$/, '()')}`;
    case 'Threads':
      return rest.length === 1 ? `pool ${rest[0]}` : `thread ${last}`;
    case 'SyncObjects':
      return rest.length === 1 ? `all ${rest[0]}` : `${rest[0] === 'locks' ? 'lock' : 'monitor'} ${simple(rest.slice(1).join('/'))}`;
    case 'Memory':
      return `objects of ${simple(rest.join('/'))}`;
    case 'IO':
      return rest.length === 1 ? `all ${rest[0]}s` : `${rest[0]} ${rest.slice(1).join('/')}`;
    case 'Process':
      return `process ${last}`;
    case 'Machine':
      return `machine ${last}`;
    default:
      return last;
  }
}

/** A number for people: a few significant digits, thousands grouped, never in scientific notation. */
export function fmt(v, digits = 3) {
  if (v === null || v === undefined || Number.isNaN(v)) {
    return '–';
  }
  if (typeof v !== 'number') {
    return String(v);
  }
  if (!Number.isFinite(v)) {
    return v > 0 ? '∞' : '−∞';
  }
  if (Math.abs(v) >= 1e5) {
    return Math.round(v).toLocaleString('en-GB');
  }
  if (v !== 0 && Math.abs(v) < 1e-3) {
    const decimals = Math.min(20, digits - 1 - Math.floor(Math.log10(Math.abs(v))));
    return v.toFixed(decimals).replace(/0+$/, '');
  }
  return String(Math.abs(v) < 1 ? Number(v.toPrecision(digits)) : Number(v.toFixed(digits)));
}

export function time(millis) {
  return millis ? new Date(millis).toLocaleString() : '–';
}

/** A <select> of the cluster's running JVMs (value: daemonId), filled asynchronously. */
export function jvmSelect(attrs) {
  const select = h('select', attrs || {});
  select.ready = get('/api/jvms').then(answer => {
    const running = answer.jvms.filter(j => j.state !== 'exited');
    select.replaceChildren(...running.map(j => h('option', { value: j.daemonId }, jvmLabel(j))));
    if (running.length === 0) {
      select.append(h('option', { value: '', disabled: true }, 'no JVM attached'));
    }
    return running;
  });
  return select;
}

export function jvmLabel(j) {
  return `${j.mainClass || '?'} (pid ${j.pid}, ${j.daemonId})`;
}

export function card(title, ...children) {
  return h('section', { class: 'card' }, title ? h('h2', {}, title) : null, ...children);
}
