// The single-page app: one hash route per page (#/search/<id>, #/history/<a>, #/compare/<a>/<b>, ...).
import { onStatus } from './live.js';
import { post } from './api.js';
import { h } from './ui.js';
import * as jvms from './pages/jvms.js';
import * as search from './pages/search.js';
import * as resources from './pages/resources.js';
import * as metrics from './pages/metrics.js';
import * as vmapp from './pages/vmapp.js';
import * as history from './pages/history.js';

const pages = { jvms, search, resources, metrics, vmapp, history, compare: history };
let cleanup = null;

function route() {
  const parts = (location.hash.replace(/^#\/?/, '') || 'jvms').split('/').map(decodeURIComponent);
  const name = pages[parts[0]] ? parts[0] : 'jvms';
  if (cleanup) {
    try {
      cleanup();
    } catch (e) {
      console.error(e);
    }
  }
  const root = document.getElementById('page');
  root.replaceChildren();
  root.dataset.page = name;
  document.querySelectorAll('nav a').forEach(a => a.classList.toggle('active', a.dataset.page === (name === 'compare' ? 'history' : name)));
  try {
    cleanup = pages[name].render(root, parts.slice(1), name) || null;
  } catch (e) {
    root.append(h('div', { class: 'message error' }, `this page failed: ${e.message}`));
    cleanup = null;
  }
}

// The address 'bottlenose serve' prints carries the token after '#' (never sent to a server): trade it for
// the session cookie, then drop it from the address bar and the history.
async function signIn() {
  const m = /^#token=([^&]*)$/.exec(location.hash);
  if (!m) return null;
  window.history.replaceState(null, '', location.pathname + location.search); // 'history' is the History page here
  try {
    await post('/api/session', { token: decodeURIComponent(m[1]) });
    return null;
  } catch (e) {
    return `signing in failed: ${e.message}`;
  }
}

// A page address, or the printed one pasted into a tab already showing the app (only the '#' part changes,
// so the page does not reload): sign in first if it carries the token, then draw the page.
async function arrive() {
  const failed = await signIn();
  route();
  if (failed) document.getElementById('page').prepend(h('div', { class: 'message error', role: 'alert' }, failed));
}

function start() {
  window.addEventListener('hashchange', arrive);
  onStatus(open => {
    const badge = document.getElementById('live-status');
    badge.classList.toggle('up', open);
    badge.textContent = open ? 'live' : 'offline';
  });
  arrive();
}

start();
