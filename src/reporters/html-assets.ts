/**
 * The inline stylesheet and script of the html report. The page is rendered on the server side, every
 * text escaped; the script only filters rows and opens the check a link (`#WH-JWT-06`) points to. It
 * reads no report data and writes no markup, so a hostile response body cannot run in the page.
 */

export const HTML_STYLE = `
:root { --pass:#1a7f37; --fail:#cf222e; --warn:#bf8700; --skip:#6e7781; --err:#8250df; --info:#0969da; --bg:#f6f8fa; --line:#d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; overflow-wrap: anywhere; }
header { background: var(--bg); border-bottom: 1px solid var(--line); padding: 12px 24px; }
h1 { font-size: 18px; margin: 0 0 6px; }
.meta { display: flex; flex-wrap: wrap; gap: 2px 18px; font-size: 12px; color: #57606a; margin: 0; }
.meta span b { font-weight: 600; color: #1f2328; font-family: ui-monospace, monospace; }
.verdict { font-weight: 700; font-size: 16px; margin: 4px 0 8px; }
.verdict.conformant { color: var(--pass); } .verdict.not-conformant { color: var(--fail); } .verdict.error, .verdict.interrupted { color: var(--err); }
.banner { margin: 8px 0 0; padding: 8px 12px; border: 2px solid var(--err); border-radius: 6px; background: #fbefff; font-weight: 600; }
.notes { margin: 6px 0 0; font-size: 13px; }
.notes.clock { color: #57606a; }
details.notes > summary { cursor: pointer; }
/* Operations that answer a valid call with the same 404 or 501: one block, each operation a line that wraps anywhere (long paths on a phone). */
section.absent { margin: 6px 0 10px; } section.absent p, section.absent li { overflow-wrap: anywhere; font-size: 13px; }
.banner.scope { border-color: var(--warn); background: #fff8e5; overflow-wrap: anywhere; }
/* A root cause's dependants, folded under it: one closed block, indented, its rows inside. */
details.fold { margin: -2px 0 8px 24px; border-left: 2px solid var(--line); padding-left: 8px; }
details.fold > summary { cursor: pointer; font-size: 13px; color: #57606a; padding: 2px 0; }
.filters { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line); padding: 8px 24px; display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; z-index: 1; }
.filters label { user-select: none; white-space: nowrap; }
.filters input[type=search] { flex: 1 1 180px; min-width: 0; max-width: 360px; padding: 4px 8px; }
.filters select { max-width: 100%; }
main { padding: 8px 24px 40px; }
details.check { border: 1px solid var(--line); border-left-width: 4px; border-radius: 6px; margin: 6px 0; }
details.check.s-failed { border-left-color: var(--fail); } details.check.s-warning { border-left-color: var(--warn); }
details.check.s-errored { border-left-color: var(--err); } details.check.s-passed { border-left-color: var(--pass); }
details.check:target { outline: 2px solid var(--info); }
/* The filter bar is sticky: an anchored check (#WH-HMAC-08) lands below it, not under it. */
details.check { scroll-margin-top: 72px; }
/* Nothing is cut by the width: long lines wrap, and tokens without spaces (URLs, hashes, commands) break. */
.gotexp { flex-basis: 100%; min-width: 0; font-family: ui-monospace, monospace; font-size: 12px; color: #57606a; }
details.check[open] > summary .gotexp { display: none; }
details.check > summary { cursor: pointer; padding: 6px 10px; display: flex; flex-wrap: wrap; gap: 2px 10px; align-items: baseline; }
details.check[open] > summary { border-bottom: 1px solid var(--line); background: var(--bg); }
.state { font-weight: 700; min-width: 72px; text-transform: uppercase; font-size: 12px; }
.s-passed .state, .state.s-passed { color: var(--pass); } .s-failed .state, .state.s-failed { color: var(--fail); }
.s-warning .state, .state.s-warning { color: var(--warn); } .s-skipped .state, .state.s-skipped { color: var(--skip); }
.s-errored .state, .state.s-errored { color: var(--err); } .s-observation .state, .s-expected .state { color: var(--info); }
.id { font-family: ui-monospace, monospace; font-weight: 600; color: inherit; min-width: 0; }
.level, .group { font-size: 12px; color: #57606a; white-space: nowrap; }
.text { flex: 1 1 260px; min-width: 0; }
.body { padding: 8px 12px; }
.body p { margin: 4px 0; }
.dependants ul { padding-left: 20px; }
pre { background: var(--bg); padding: 8px; font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
.count { color: #57606a; font-size: 13px; }
details.check.s-blocked { border-left-color: var(--skip); border-left-style: dashed; } .s-blocked .state, .state.s-blocked { color: var(--skip); }
.pulled { font-size: 12px; font-style: italic; color: #57606a; }
.deps { flex-basis: 100%; min-width: 0; font-size: 12px; font-weight: 600; color: var(--fail); }
table.totals { border-collapse: collapse; margin-top: 6px; font-size: 12px; }
table.totals td, table.totals th { border: 1px solid var(--line); padding: 1px 8px; text-align: right; }
table.totals th:first-child, table.totals td:first-child { text-align: left; }
@media (max-width: 600px) {
  header, .filters, main { padding-left: 8px; padding-right: 8px; }
  /* On a phone the filter bar wraps to several lines: sticky, it would cover the check a link opens. */
  .filters { position: static; }
  details.check { scroll-margin-top: 0; }
  details.fold { margin-left: 8px; padding-left: 6px; }
  .state { min-width: 0; }
}
`;

export const HTML_SCRIPT = `
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('details.check'));
  var levelSelect = document.getElementById('f-level');
  var groupSelect = document.getElementById('f-group');
  var textInput = document.getElementById('f-text');
  function apply() {
    var states = {};
    document.querySelectorAll('input[data-state]').forEach(function (c) { states[c.getAttribute('data-state')] = c.checked; });
    var level = levelSelect.value, group = groupSelect.value, text = textInput.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (row) {
      var ok = states[row.dataset.state] !== false && (!level || row.dataset.level === level) && (!group || row.dataset.group === group) &&
        (!text || row.dataset.hay.indexOf(text) >= 0);
      row.style.display = ok ? '' : 'none';
      if (ok) shown++;
    });
    // A fold with no row left shown goes too; a search that matches inside one opens it.
    document.querySelectorAll('details.fold').forEach(function (fold) {
      var visible = Array.prototype.some.call(fold.querySelectorAll('details.check'), function (row) { return row.style.display !== 'none'; });
      fold.style.display = visible ? '' : 'none';
      if (text && visible) fold.open = true;
    });
    document.getElementById('f-count').textContent = shown + ' of ' + rows.length + ' checks shown';
  }
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var row = id && document.getElementById(id);
    if (row && row.tagName === 'DETAILS') {
      // A dependant sits in its root cause's fold: open every block around it first.
      for (var up = row.parentElement; up; up = up.parentElement) if (up.tagName === 'DETAILS') { up.style.display = ''; up.open = true; }
      row.style.display = ''; row.open = true; row.scrollIntoView();
    }
  }
  document.querySelectorAll('.filters input, .filters select').forEach(function (c) { c.addEventListener('input', apply); });
  window.addEventListener('hashchange', openTarget);
  apply();
  openTarget();
})();
`;
