/**
 * The inline stylesheet and script of the html report. The script renders from the embedded JSON with
 * textContent only (never innerHTML of report data), so a hostile response body cannot run in the page.
 */

export const HTML_STYLE = `
:root { --pass:#1a7f37; --fail:#cf222e; --skip:#6e7781; --err:#9a6700; --bg:#f6f8fa; --line:#d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; }
header { background: var(--bg); border-bottom: 1px solid var(--line); padding: 16px 24px; }
h1 { font-size: 20px; margin: 0 0 8px; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; font-size: 13px; }
.meta dt { color: #57606a; } .meta dd { margin: 0; font-family: ui-monospace, monospace; }
.verdict { font-weight: 600; margin: 8px 0 0; }
.verdict.conformant { color: var(--pass); } .verdict.not-conformant { color: var(--fail); } .verdict.error { color: var(--err); }
table.totals { border-collapse: collapse; margin-top: 8px; font-size: 13px; }
table.totals td, table.totals th { border: 1px solid var(--line); padding: 2px 10px; text-align: right; }
table.totals th:first-child, table.totals td:first-child { text-align: left; }
.filters { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line); padding: 10px 24px; display: flex; flex-wrap: wrap; gap: 12px; align-items: center; z-index: 1; }
.filters label { user-select: none; }
.filters input[type=search] { min-width: 260px; padding: 4px 8px; }
main { padding: 8px 24px 40px; }
details.check { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; }
details.check > summary { cursor: pointer; padding: 6px 10px; display: flex; gap: 10px; align-items: baseline; }
details.check[open] > summary { border-bottom: 1px solid var(--line); background: var(--bg); }
.state { font-weight: 600; min-width: 64px; text-transform: uppercase; font-size: 12px; }
.state.passed { color: var(--pass); } .state.failed { color: var(--fail); } .state.skipped { color: var(--skip); } .state.errored { color: var(--err); }
.id { font-family: ui-monospace, monospace; font-weight: 600; white-space: nowrap; }
.level { font-size: 12px; color: #57606a; min-width: 54px; } .group { font-size: 12px; color: #57606a; white-space: nowrap; }
.body { padding: 8px 12px; }
.body p { margin: 4px 0; }
pre { background: var(--bg); padding: 8px; overflow-x: auto; font-size: 12px; white-space: pre-wrap; word-break: break-all; }
.count { color: #57606a; font-size: 13px; }
`;

export const HTML_SCRIPT = `
(function () {
  var report = JSON.parse(document.getElementById('report-data').textContent);
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function exchangeText(x) {
    var lines = ['> ' + x.request.method + ' ' + x.request.url + (x.label ? '   (' + x.label + ')' : '')];
    Object.keys(x.request.headers || {}).forEach(function (h) { lines.push('  ' + h + ': ' + x.request.headers[h]); });
    if (x.request.body) lines.push('', x.request.body + (x.request.bodyTruncated ? '\\n… (' + x.request.bodyBytes + ' bytes in all)' : ''));
    if (x.response) {
      lines.push('', '< ' + x.response.status + '   (' + x.durationMs + ' ms)');
      Object.keys(x.response.headers || {}).forEach(function (h) { lines.push('  ' + h + ': ' + x.response.headers[h]); });
      if (x.response.body) lines.push('', x.response.body + (x.response.bodyTruncated ? '\\n… (' + x.response.bodyBytes + ' bytes in all)' : ''));
    } else if (x.error) {
      lines.push('', 'x ' + x.error.code + ': ' + x.error.message);
    }
    return lines.join('\\n');
  }
  var list = document.getElementById('checks');
  var rows = report.results.map(function (r) {
    var d = el('details', { class: 'check' });
    var s = el('summary');
    s.appendChild(el('span', { class: 'state ' + r.state }, r.state + (r.expectedFailure ? '*' : '')));
    s.appendChild(el('span', { class: 'id' }, r.id));
    s.appendChild(el('span', { class: 'level' }, r.level));
    s.appendChild(el('span', { class: 'group' }, r.group));
    s.appendChild(el('span', null, r.text));
    d.appendChild(s);
    d.addEventListener('toggle', function once() {
      if (!d.open || d.dataset.filled) return;
      d.dataset.filled = '1';
      var b = el('div', { class: 'body' });
      b.appendChild(el('p', null, '§' + r.section + (r.ruling ? ', ruling ' + r.ruling : '') + ', ' + r.durationMs + ' ms' + (r.phase === 'clock' ? ', clock phase' : '')));
      if (r.expectedFailure) b.appendChild(el('p', null, 'Expected failure: listed in the baseline.'));
      if (r.reason) b.appendChild(el('p', null, 'Skipped: ' + r.reason));
      if (r.failure) {
        b.appendChild(el('p', null, r.failure.message));
        if (r.failure.expected) b.appendChild(el('pre', null, 'expected: ' + r.failure.expected + '\\nactual:   ' + r.failure.actual));
      }
      if (r.harnessError) b.appendChild(el('p', null, 'error[' + r.harnessError.code + ']: ' + r.harnessError.message + (r.harnessError.hint ? ' (hint: ' + r.harnessError.hint + ')' : '')));
      (r.observations || []).forEach(function (o) { b.appendChild(el('p', null, 'note: ' + o)); });
      (r.exchanges || []).forEach(function (x, i) {
        var xd = el('details');
        xd.appendChild(el('summary', null, 'exchange ' + (i + 1) + ': ' + x.request.method + ' ' + x.request.url + (x.response ? ' → ' + x.response.status : x.error ? ' → ' + x.error.code : '')));
        xd.appendChild(el('pre', null, exchangeText(x)));
        b.appendChild(xd);
      });
      d.appendChild(b);
    });
    list.appendChild(d);
    return { node: d, r: r, hay: (r.id + ' ' + r.text + ' ' + r.group + ' ' + (r.reason || '') + ' ' + (r.failure ? r.failure.message : '')).toLowerCase() };
  });
  var groups = {};
  report.results.forEach(function (r) { groups[r.group] = true; });
  var groupSelect = document.getElementById('f-group');
  Object.keys(groups).forEach(function (g) { groupSelect.appendChild(el('option', { value: g }, g)); });
  function apply() {
    var states = {};
    document.querySelectorAll('input[data-state]').forEach(function (c) { states[c.getAttribute('data-state')] = c.checked; });
    var level = document.getElementById('f-level').value;
    var group = groupSelect.value;
    var text = document.getElementById('f-text').value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (row) {
      var ok = states[row.r.state] && (!level || row.r.level === level) && (!group || row.r.group === group) && (!text || row.hay.indexOf(text) >= 0);
      row.node.style.display = ok ? '' : 'none';
      if (ok) shown++;
    });
    document.getElementById('f-count').textContent = shown + ' of ' + rows.length + ' checks shown';
  }
  document.querySelectorAll('.filters input, .filters select').forEach(function (c) { c.addEventListener('input', apply); });
  apply();
})();
`;
