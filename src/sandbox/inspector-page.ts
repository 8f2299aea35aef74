/**
 * The inspector's HTML: one self-contained document (its style and script inline, nothing fetched but its
 * own feed), under a Content-Security-Policy that allows exactly that inline style and script (by their
 * SHA-256) and connections to its own origin. Everything a request carried reaches the document through the
 * script's `textContent`, never as markup; the cheat-sheet, the one text rendered here, is escaped
 * (src/escape.ts).
 */
import { createHash } from 'node:crypto';
import { escapeMarkup } from '../escape.js';
import { REQUEST_LOG_SIZE } from './request-log.js';
import { SHOWN_EXCHANGE_BYTES } from './redact-exchange.js';

/** How often the open page asks for new requests, and after a failed ask. */
const POLL_MS = 1000;
const RETRY_MS = 5000;
/** One ask that takes longer is dropped (and retried later): every wait of the page is bounded. */
const ASK_TIMEOUT_MS = 5000;

const STYLE = `
:root { color-scheme: light; --fg: #1c2024; --muted: #5b6470; --line: #d9dde3; --bg: #f6f7f9; --ok: #1d7a3e; --warn: #a15c00; --bad: #b3261e; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 16px; padding: 12px 20px; background: #fff; border-bottom: 1px solid var(--line); }
h1 { font-size: 18px; margin: 0; }
#state { color: var(--muted); }
#state.live::before { content: "\\25CF "; color: var(--ok); }
#state.down::before { content: "\\25CF "; color: var(--bad); }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 34%); gap: 16px; padding: 16px 20px; align-items: start; }
@media (max-width: 900px) { .layout { grid-template-columns: minmax(0, 1fr); } }
h2 { font-size: 15px; margin: 0 0 8px; }
.note { color: var(--muted); margin: 0 0 8px; }
#rows { display: flex; flex-direction: column; gap: 6px; }
details.row { background: #fff; border: 1px solid var(--line); border-left: 4px solid var(--ok); border-radius: 4px; }
details.row.s4 { border-left-color: var(--warn); }
details.row.s5 { border-left-color: var(--bad); }
details.row > summary { cursor: pointer; padding: 6px 10px; display: flex; flex-wrap: wrap; gap: 2px 10px; align-items: baseline; }
.time, .duration { color: var(--muted); font-variant-numeric: tabular-nums; }
.method { font-weight: 600; }
.target, .listener, pre, code, .mistake { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px; }
.target { overflow-wrap: anywhere; min-width: 0; }
.status { font-weight: 700; color: var(--ok); }
.s4 .status { color: var(--warn); }
.s5 .status { color: var(--bad); }
.listener { color: var(--muted); }
.sentence { flex-basis: 100%; overflow-wrap: anywhere; }
.mistake { color: var(--muted); }
.detail { padding: 0 10px 10px; border-top: 1px solid var(--line); }
.detail h3 { font-size: 13px; margin: 10px 0 4px; color: var(--muted); font-weight: 600; }
pre { margin: 0; padding: 8px; background: var(--bg); border-radius: 3px; white-space: pre-wrap; overflow-wrap: anywhere; }
table.headers { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.headers td { padding: 1px 6px 1px 0; vertical-align: top; overflow-wrap: anywhere; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
table.headers td:first-child { width: 28%; color: var(--muted); }
aside { background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: 12px; position: sticky; top: 12px; }
aside pre { font-size: 12px; }
#empty { color: var(--muted); padding: 12px; background: #fff; border: 1px dashed var(--line); border-radius: 4px; }
`;

const SCRIPT = `(function () {
  'use strict';
  var feed = document.body.getAttribute('data-feed');
  var list = document.getElementById('rows');
  var state = document.getElementById('state');
  var empty = document.getElementById('empty');
  var last = 0;
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function block(parent, title, text, more) {
    parent.appendChild(el('h3', '', title));
    parent.appendChild(el('pre', '', text === '' ? '(empty)' : text + (more > 0 ? '\\n\\u2026 ' + more + ' more bytes not shown' : '')));
  }
  function row(r) {
    var band = r.status >= 500 ? 's5' : r.status >= 400 ? 's4' : 's2';
    var details = el('details', 'row ' + band);
    details.setAttribute('data-seq', String(r.seq));
    details.setAttribute('data-status', String(r.status));
    var summary = el('summary');
    summary.appendChild(el('span', 'time', r.at.slice(11, 23)));
    summary.appendChild(el('span', 'method', r.method));
    summary.appendChild(el('span', 'target', r.target));
    summary.appendChild(el('span', 'status', r.status));
    if (r.listener !== null) summary.appendChild(el('span', 'listener', (r.listenerKey !== null ? r.listenerKey + ' ' : '') + r.listener));
    summary.appendChild(el('span', 'duration', r.durationMs + ' ms'));
    if (r.sentence !== null) summary.appendChild(el('span', 'sentence', r.sentence));
    details.appendChild(summary);
    var detail = el('div', 'detail');
    if (r.mistake !== null || r.error !== null) {
      detail.appendChild(el('h3', '', r.mistake !== null ? 'Diagnosis' : 'Error code'));
      detail.appendChild(el('div', 'mistake', [r.error !== null ? 'error ' + r.error : '', r.mistake !== null ? 'mistake ' + r.mistake : ''].filter(Boolean).join(' \\u00b7 ')));
    }
    detail.appendChild(el('h3', '', 'Request headers'));
    var table = el('table', 'headers');
    r.headers.forEach(function (h) {
      var tr = el('tr');
      tr.appendChild(el('td', '', h[0]));
      tr.appendChild(el('td', '', h[1]));
      table.appendChild(tr);
    });
    detail.appendChild(table);
    block(detail, 'Request body', r.body, r.bodyMoreBytes);
    block(detail, 'Answer', r.response, r.responseMoreBytes);
    block(detail, 'Send it again' + (r.variables.length > 0 ? ' (set ' + r.variables.map(function (v) { return '$' + v; }).join(', ') + ' first; secrets are never shown)' : ''), r.command + (r.bodyMoreBytes > 0 ? '\\n# the body was cut at ${SHOWN_EXCHANGE_BYTES} bytes: this sends only its start' : ''), 0);
    details.appendChild(detail);
    return details;
  }
  function show(data) {
    for (var i = data.rows.length - 1; i >= 0; i -= 1) list.insertBefore(row(data.rows[i]), list.firstChild);
    while (list.children.length > ${REQUEST_LOG_SIZE}) list.removeChild(list.lastChild);
    if (data.rows.length > 0) empty.hidden = true;
    last = data.lastSeq;
  }
  function ask() {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, ${ASK_TIMEOUT_MS});
    fetch(feed + '?after=' + last, { cache: 'no-store', credentials: 'omit', signal: controller.signal })
      .then(function (response) { if (!response.ok) throw new Error('HTTP ' + response.status); return response.json(); })
      .then(function (data) {
        show(data);
        state.className = 'live';
        state.textContent = 'live: new requests appear as they arrive';
        setTimeout(ask, ${POLL_MS});
      })
      .catch(function () {
        state.className = 'down';
        state.textContent = 'the sandbox does not answer; trying again';
        setTimeout(ask, ${RETRY_MS});
      })
      .finally(function () { clearTimeout(timer); });
  }
  ask();
})();`;

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** Sent with the page and its feed: nothing but the page's own style, script and origin; never cached or framed. */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'none'",
    `style-src ${sha256(STYLE)}`,
    `script-src ${sha256(SCRIPT)}`,
    "connect-src 'self'",
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'cache-control': 'no-store',
  // The token is in the address: no other site may learn it from a Referer.
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

export function inspectorPage(options: { feed: string; cheatSheet: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>access-conformance sandbox inspector</title>
<style>${STYLE}</style>
</head>
<body data-feed="${escapeMarkup(options.feed)}">
<header><h1>Sandbox inspector</h1><span id="state">connecting…</span></header>
<div class="layout">
<main>
<h2>Latest requests</h2>
<p class="note">Newest first, the last ${REQUEST_LOG_SIZE}; bodies cut at ${SHOWN_EXCHANGE_BYTES / 1024} KiB. Secrets (Authorization, Webhook-Signature, client_secret, client_assertion, the tenant's secrets) are shown as [NAME]; open a row for its headers, body, answer and the command that sends it again.</p>
<div id="empty">No request yet: send one to the sandbox and it appears here.</div>
<div id="rows"></div>
</main>
<aside>
<h2>This sandbox</h2>
<pre>${escapeMarkup(options.cheatSheet)}</pre>
</aside>
</div>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
