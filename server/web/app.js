// toolguard approval page. No inline script (CSP forbids it); every
// value from the server is inserted as text, never as HTML.
'use strict';

const $ = (id) => document.getElementById(id);
const cards = new Map(); // approval id -> card element
const FEED_MAX = 100;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(path, opts = {}) {
  const headers = Object.assign({}, opts.headers || {});
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const resp = await fetch(path, Object.assign({}, opts, { headers, credentials: 'same-origin' }));
  let data = null;
  try { data = await resp.json(); } catch (_) { data = null; }
  if (resp.status === 401) showLogin('');
  if (!resp.ok) throw new Error((data && data.error) || ('HTTP ' + resp.status));
  return data;
}

// --- token login -----------------------------------------------------------

async function login(token) {
  await api('/v1/login', { method: 'POST', headers: { Authorization: 'Bearer ' + token }, body: '{}' });
}

function showLogin(msg) {
  $('login').hidden = false;
  $('app').hidden = true;
  $('login-error').textContent = msg;
}

// tokenFromHash signs in with a token given in the address (#token=…)
// and reports whether the page may start.
async function tokenFromHash() {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!m) return true;
  history.replaceState(null, '', location.pathname); // keep the token out of history
  try {
    await login(decodeURIComponent(m[1]));
    return true;
  } catch (e) {
    showLogin(e.message);
    return false;
  }
}

$('login-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  try {
    await login($('token').value.trim());
    $('token').value = '';
    $('login').hidden = true;
    $('app').hidden = false;
    start();
  } catch (e) { $('login-error').textContent = e.message; }
});

// --- rendering helpers ----------------------------------------------------

// highlight returns a <pre> content: the command with the findings' byte
// spans marked. Spans count UTF-8 bytes, so the text is cut as bytes.
function highlight(pre, text, findings) {
  const bytes = new TextEncoder().encode(text);
  const dec = new TextDecoder();
  const spans = (findings || [])
    .map((f) => f.span || {})
    .filter((s) => s.end > s.start && s.start >= 0 && s.end <= bytes.length)
    .sort((a, b) => a.start - b.start);
  let pos = 0;
  for (const s of spans) {
    const start = Math.max(s.start, pos);
    if (s.end <= start) continue;
    pre.append(dec.decode(bytes.subarray(pos, start)));
    pre.append(el('mark', '', dec.decode(bytes.subarray(start, s.end))));
    pos = s.end;
  }
  pre.append(dec.decode(bytes.subarray(pos)));
}

function callText(call) {
  if (call.command) return call.command;
  return JSON.stringify(call.input || {}, null, 1);
}

const DIFF_MAX_LINES = 400;

// editDiff returns the lines of a diff for an edit or write ([sign, text]
// pairs, sign '-', '+' or ' ' for a heading), or null for other calls: an
// Edit's old and new text, each edit of a MultiEdit, a Write's content.
function editDiff(call) {
  const i = call.input || {};
  const path = i.file_path || i.path || i.filePath || '';
  const lines = (s) => String(s).split('\n');
  const out = [];
  const pair = (oldText, newText) => {
    for (const l of lines(oldText)) out.push(['-', l]);
    for (const l of lines(newText)) out.push(['+', l]);
  };
  if (typeof i.old_string === 'string' && typeof i.new_string === 'string') {
    out.push([' ', 'edit ' + path + (i.replace_all ? ' (every occurrence)' : '')]);
    pair(i.old_string, i.new_string);
  } else if (Array.isArray(i.edits)) {
    out.push([' ', 'edit ' + path + ' (' + i.edits.length + ' changes)']);
    for (const e of i.edits) {
      const o = e.old_string !== undefined ? e.old_string : e.oldText;
      const n = e.new_string !== undefined ? e.new_string : e.newText;
      if (typeof o === 'string' && typeof n === 'string') pair(o, n);
    }
  } else if (typeof i.content === 'string' && path) {
    const ls = lines(i.content);
    out.push([' ', 'write ' + path + ' (' + ls.length + ' lines; replaces the file if it exists)']);
    for (const l of ls) out.push(['+', l]);
  } else {
    return null;
  }
  return out;
}

// showCall fills the card's <pre>: the command with the findings' spans
// marked, the diff of an edit or write, or the arguments as JSON.
function showCall(pre, call, findings) {
  const diff = call.command ? null : editDiff(call);
  if (!diff) {
    highlight(pre, callText(call), call.command ? findings : []);
    return;
  }
  pre.classList.add('diff');
  for (const [sign, text] of diff.slice(0, DIFF_MAX_LINES)) {
    const cls = sign === '+' ? 'add' : sign === '-' ? 'del' : 'hunk';
    pre.append(el('span', cls, (sign === ' ' ? '' : sign + ' ') + text + '\n'));
  }
  if (diff.length > DIFF_MAX_LINES) pre.append(el('span', 'hunk', '… ' + (diff.length - DIFF_MAX_LINES) + ' more lines\n'));
}

function blastBadge(node, blast) {
  node.textContent = 'blast: ' + blast;
  node.classList.add('blast-' + blast);
  node.title = 'blast radius ' + blast;
}

// --- pending approvals ------------------------------------------------------

function addCard(p) {
  if (cards.has(p.id)) return;
  const li = $('card-tpl').content.firstElementChild.cloneNode(true);
  li.dataset.id = p.id;
  const d = p.decision, c = p.call;
  li.querySelector('.tool').textContent = c.tool + (c.kind && c.kind !== c.tool ? ' (' + c.kind + ')' : '');
  li.querySelector('.tier').textContent = 'tier: ' + d.tier;
  blastBadge(li.querySelector('.blast'), d.blast_radius);
  li.querySelector('.cat').textContent = d.category || '';
  const who = [c.who && c.who.agent, c.who && c.who.session && ('session ' + c.who.session), c.cwd].filter(Boolean);
  li.querySelector('.who').textContent = who.join(' · ');
  showCall(li.querySelector('.cmd'), c, d.findings);
  li.querySelector('.reason').textContent = d.reason + (d.unverifiable ? ' (part of it cannot be known before it runs)' : '');
  const ul = li.querySelector('.findings');
  for (const f of d.findings || []) ul.append(el('li', '', f.rule + ': ' + f.reason));
  showGrant(li, p);
  li.querySelector('.expires').dataset.expires = p.expires_at;
  li.setAttribute('aria-label', 'Request to run ' + c.tool + ': ' + d.reason);
  for (const b of li.querySelectorAll('button')) {
    b.addEventListener('click', () => answer(li, b.dataset.approve === 'true', b.dataset.scope));
  }
  li.addEventListener('keydown', (ev) => onCardKey(ev, li));
  cards.set(p.id, li);
  $('pending').append(li);
  updateCount();
  tickExpiry();
}

// showGrant lists what a session or always answer would allow from now on:
// exactly the call shown (the default), or one of the offered command
// prefixes. A call that cannot be remembered offers neither button.
function showGrant(li, p) {
  const sel = li.querySelector('.grant');
  if (!p.grant) {
    li.querySelector('.remember').hidden = true;
    li.querySelector('.no-remember').hidden = false;
    for (const b of li.querySelectorAll('button[data-scope="session"], button[data-scope="always"]')) b.hidden = true;
    return;
  }
  const exact = el('option', '', p.grant + '  (exactly this)');
  exact.value = '';
  sel.append(exact);
  const tool = p.grant.slice(0, p.grant.indexOf('('));
  for (const prefix of p.prefixes || []) {
    const o = el('option', '', tool + '(' + prefix + ':*)  (commands starting with "' + prefix + '")');
    o.value = prefix;
    sel.append(o);
  }
}

function removeCard(id) {
  const li = cards.get(id);
  if (!li) return;
  const next = li.nextElementSibling || li.previousElementSibling;
  const hadFocus = li.contains(document.activeElement);
  li.remove();
  cards.delete(id);
  if (hadFocus && next) next.focus();
  updateCount();
}

function updateCount() {
  const n = cards.size;
  $('pending-count').textContent = String(n);
  $('pending-count').classList.toggle('some', n > 0);
  $('no-pending').hidden = n > 0;
  document.title = (n > 0 ? '(' + n + ') ' : '') + 'toolguard';
}

async function answer(li, approved, scope) {
  const buttons = li.querySelectorAll('button');
  buttons.forEach((b) => { b.disabled = true; });
  li.querySelector('.card-error').textContent = '';
  try {
    const body = { approved, scope };
    const prefix = li.querySelector('.grant').value;
    if (approved && scope !== 'once' && prefix) body.prefix = prefix;
    await api('/v1/approvals/' + encodeURIComponent(li.dataset.id), {
      method: 'POST', body: JSON.stringify(body),
    });
    removeCard(li.dataset.id);
  } catch (e) {
    li.querySelector('.card-error').textContent = e.message;
    buttons.forEach((b) => { b.disabled = false; });
  }
}

const KEYS = { a: [true, 'once'], s: [true, 'session'], w: [true, 'always'], d: [false, 'once'] };

function onCardKey(ev, li) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (KEYS[ev.key]) {
    ev.preventDefault();
    answer(li, KEYS[ev.key][0], KEYS[ev.key][1]);
  } else if (ev.key === 'j' || ev.key === 'k') {
    ev.preventDefault();
    const to = ev.key === 'j' ? li.nextElementSibling : li.previousElementSibling;
    if (to) to.focus();
  }
}

function tickExpiry() {
  const now = Date.now();
  for (const li of cards.values()) {
    const p = li.querySelector('.expires');
    const left = Math.max(0, Math.round((Date.parse(p.dataset.expires) - now) / 1000));
    p.textContent = 'Denied automatically in ' + left + ' s unless you answer.';
  }
}

// loadApprovals lists what waits now. A card shown before the list was
// asked for and missing from it was answered meanwhile; a card that
// arrived by event while the list was on its way stays (the list may be
// older than the event).
async function loadApprovals() {
  const before = new Set(cards.keys());
  const data = await api('/v1/approvals');
  const live = new Set();
  for (const p of data.approvals) { live.add(p.id); addCard(p); }
  for (const id of before) if (!live.has(id)) removeCard(id);
}

// --- live feed --------------------------------------------------------------

function addFeed(d) {
  $('feed-empty').hidden = true;
  const li = el('li', 'v-' + d.verdict + (d.tried ? ' tried' : ''));
  li.append(el('span', 'verdict ' + d.verdict, d.verdict));
  if (d.tried) li.append(el('span', 'badge tried-badge', 'tried here'));
  if (d.contained) {
    const b = el('span', 'badge contained-badge', 'contained');
    b.title = 'rewritten to run in toolguard\'s sandbox: it could write only the project, the temporary directories and the toolchains\' caches, and read no secrets';
    li.append(b);
  }
  li.append(el('span', 'summary-line', d.tool + ': ' + (d.summary || '')));
  li.append(el('span', 'why', d.tier + ' · ' + d.blast_radius + (d.category ? ' · ' + d.category : '') + ' — ' + d.reason));
  const list = $('feed');
  list.prepend(li);
  while (list.children.length > FEED_MAX) list.lastElementChild.remove();
}

function connect() {
  const es = new EventSource('/v1/events');
  es.addEventListener('open', () => { setConn(true); loadApprovals().catch(() => {}); });
  es.addEventListener('error', () => setConn(false));
  es.addEventListener('decision', (m) => addFeed(JSON.parse(m.data)));
  es.addEventListener('approval_required', (m) => addCard(JSON.parse(m.data)));
  es.addEventListener('approval_resolved', (m) => {
    const r = JSON.parse(m.data);
    removeCard(r.id);
    if (r.scope === 'session' || r.scope === 'always') loadGrants().catch(() => {});
  });
  es.addEventListener('dropped', () => loadApprovals().catch(() => {}));
}

function setConn(up) {
  const c = $('conn');
  c.textContent = up ? 'live' : 'reconnecting…';
  c.className = 'conn ' + (up ? 'live' : 'down');
}

// --- try a call ---------------------------------------------------------------

function tryBody() {
  const tool = $('try-tool').value.trim();
  const raw = $('try-input').value;
  let input;
  if (raw.trim().startsWith('{')) {
    input = JSON.parse(raw);
  } else {
    input = { command: raw };
  }
  const body = { tool, input, try: true }; // marked in the feed, kept out of the metrics
  if ($('try-cwd').value.trim()) body.cwd = $('try-cwd').value.trim();
  return { body, text: input.command || raw };
}

$('try-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const out = $('try-result');
  out.replaceChildren();
  try {
    const { body, text } = tryBody();
    const d = await api('/v1/decide', { method: 'POST', body: JSON.stringify(body) });
    const box = el('div', 'result v-' + d.verdict);
    const head = el('div', 'card-head');
    head.append(el('span', 'verdict ' + d.verdict, d.verdict));
    head.append(el('span', 'badge tier', 'tier: ' + d.tier));
    const blast = el('span', 'badge blast');
    blastBadge(blast, d.blast_radius);
    head.append(blast);
    head.append(el('span', 'cat', (d.category || '') + ' ' + d.rule));
    const pre = el('pre', 'cmd');
    highlight(pre, text, typeof body.input.command === 'string' ? d.findings : []);
    box.append(head, pre, el('p', 'reason', d.reason));
    if (d.suggestion) box.append(el('p', 'muted', 'Instead: ' + d.suggestion));
    out.append(box);
  } catch (e) {
    out.append(el('p', 'error', e.message));
  }
});

// --- start ----------------------------------------------------------------------

async function loadPolicy() {
  const p = await api('/v1/policy');
  $('mode').textContent = 'mode ' + p.mode;
  $('mode').title = 'policy ' + p.hash;
  $('summary').textContent = p.summary;
}

// loadHistory shows the recent decisions of the audit log, so that the
// feed is not empty after a reload.
async function loadHistory() {
  const data = await api('/v1/decisions?limit=' + FEED_MAX);
  for (const d of data.decisions) addFeed(d);
}

// loadGrants lists the stored grants with who made them; in a fleet
// each can be revoked.
async function loadGrants() {
  const data = await api('/v1/grants');
  const body = $('grants-body');
  body.textContent = '';
  $('grants-where').textContent = data.fleet ? '(fleet database)' : '(policy file)';
  for (const g of data.grants) {
    const tr = el('tr');
    const scope = g.grant.scope + (g.grant.session ? ' ' + g.grant.session : '');
    const by = g.granted_by + (g.replica ? ' on ' + g.replica : '');
    tr.append(el('td', 'grant-pattern', g.pattern), el('td', '', scope), el('td', '', by),
      el('td', '', new Date(g.created).toLocaleString()));
    const cell = el('td');
    if (data.fleet) {
      const btn = el('button', 'revoke', 'Revoke');
      btn.type = 'button';
      btn.addEventListener('click', async () => {
        btn.disabled = true;
        try { await api('/v1/grants/' + g.id, { method: 'DELETE' }); tr.remove(); } catch (e) { btn.disabled = false; btn.title = e.message; }
      });
      cell.append(btn);
    }
    tr.append(cell);
    body.append(tr);
  }
  $('grants').hidden = data.grants.length === 0;
  $('grants-empty').hidden = data.grants.length > 0;
}

function start() {
  loadPolicy().then(() => loadHistory().catch(() => {})).then(() => { connect(); }).catch(() => {});
  loadGrants().catch(() => {});
}

(async () => {
  if (await tokenFromHash()) start();
  setInterval(tickExpiry, 1000);
})();
