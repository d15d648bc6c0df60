/**
 * The report's stylesheet, inlined into the page: system fonts only (no network), tabular
 * numbers, one colour per iteration status shared by the chart, the table and the legend.
 */
export const REPORT_CSS = `
:root {
  --bg: #f6f7f9; --panel: #ffffff; --text: #1d2330; --muted: #5f6b7a; --faint: #8a95a3;
  --line: #e3e7ec; --line-strong: #cfd6de; --accent: #2f6fdb; --code-bg: #f3f5f8;
  --add-bg: #e7f6ec; --add-fg: #17683a; --del-bg: #fdecec; --del-fg: #a12b2b;
  --s-baseline: #4f6d8f; --s-keep: #1f9d55; --s-discard: #9aa5b1; --s-gate_fail: #d64545;
  --s-holdout_fail: #e8833a; --s-duplicate: #9b87c9; --s-error: #8b1e3f; --s-interrupted: #d4a017;
  --best: #1d2330; --holdout: #7a4fd1; --band: rgba(47, 111, 219, 0.12);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #14171c; --panel: #1c2027; --text: #e4e8ee; --muted: #a2acb8; --faint: #7c8794;
    --line: #2b313a; --line-strong: #3a424d; --accent: #6f9ff0; --code-bg: #232830;
    --add-bg: #16311f; --add-fg: #8fdca9; --del-bg: #3a1d1d; --del-fg: #f2a3a3;
    --best: #e4e8ee; --band: rgba(111, 159, 240, 0.16);
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--text);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
main { max-width: 1200px; margin: 0 auto; padding: 28px 24px 64px; }
h1 { font-size: 24px; line-height: 1.25; margin: 0; font-weight: 650; letter-spacing: -0.01em; }
h2 { font-size: 17px; margin: 0 0 12px; font-weight: 650; }
h3 { font-size: 14px; margin: 18px 0 8px; font-weight: 650; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
h4 { font-size: 14px; margin: 12px 0 6px; font-weight: 600; }
p { margin: 0 0 8px; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
.num { font-variant-numeric: tabular-nums; }
.muted { color: var(--muted); }
.faint { color: var(--faint); }
section.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 18px 20px; margin-top: 18px; }
.head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 10px 14px; }
.runid { color: var(--muted); font-size: 13px; }
.badge { display: inline-block; padding: 1px 9px; border-radius: 999px; font-size: 12px; font-weight: 600; border: 1px solid transparent; white-space: nowrap; }
.badge.running { background: #e6f0ff; color: #1d4fa8; }
.badge.finished { background: #e7f6ec; color: #17683a; }
.badge.stopped { background: #fff4e0; color: #8a5a00; }
.badge.crashed { background: #fdecec; color: #a12b2b; }
.badge.sim { background: #fff4e0; color: #8a5a00; border-color: #f0d49a; }
.badge.live { background: #e6f0ff; color: #1d4fa8; }
.stopline { margin-top: 6px; color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 12px; margin-top: 16px; }
@media (max-width: 820px) { .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
.card.wide { grid-column: span 2; }
.card.wide .value { font-size: 14px; font-weight: 600; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; word-break: break-all; margin-top: 6px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; }
.card .label { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
.card .value { font-size: 20px; font-weight: 650; margin-top: 2px; font-variant-numeric: tabular-nums; }
.card .sub { font-size: 12.5px; color: var(--muted); margin-top: 2px; }
.up { color: #1f9d55; } .down { color: #d64545; }
.chart { width: 100%; height: auto; display: block; }
.chart text { font-size: 11px; fill: var(--muted); font-family: inherit; }
.chart .grid { stroke: var(--line); stroke-width: 1; }
.chart .axis { stroke: var(--line-strong); stroke-width: 1; }
.chart .band { fill: var(--band); stroke: none; }
.chart .bestline { fill: none; stroke: var(--best); stroke-width: 2; }
.chart .holdoutline { fill: none; stroke: var(--holdout); stroke-width: 1.6; stroke-dasharray: 5 4; }
.chart .pt { stroke: var(--panel); stroke-width: 1.5; cursor: pointer; }
.chart .pt.unscored { fill: var(--panel) !important; stroke-width: 2; }
.chart .pt:hover { stroke: var(--text); }
.legend { display: flex; flex-wrap: wrap; gap: 6px 16px; margin-top: 10px; font-size: 13px; color: var(--muted); }
.legend span { display: inline-flex; align-items: center; gap: 6px; }
.sw { width: 10px; height: 10px; border-radius: 50%; display: inline-block; }
.sw.line { width: 18px; height: 0; border-radius: 0; border-top: 2px solid var(--best); }
.sw.dash { width: 18px; height: 0; border-radius: 0; border-top: 2px dashed var(--holdout); }
.sw.bandsw { width: 18px; height: 10px; border-radius: 2px; background: var(--band); }
.tablewrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 13.5px; }
th { text-align: left; font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: 0.03em; padding: 8px 10px; border-bottom: 1px solid var(--line-strong); white-space: nowrap; }
td { padding: 7px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.row { cursor: pointer; }
tr.row:hover td { background: var(--code-bg); }
tr.row.open td { background: var(--code-bg); border-bottom-color: transparent; }
tr.row td.hyp { width: 100%; max-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
tr.row td.twisty { width: 18px; color: var(--faint); padding-right: 0; }
tr.row.incumbent td.it { font-weight: 700; }
.pill { display: inline-block; padding: 0 8px; border-radius: 999px; font-size: 12px; font-weight: 600; color: #fff; white-space: nowrap; }
.detail > td { background: var(--panel); padding: 6px 18px 20px 28px; border-bottom: 1px solid var(--line-strong); }
.kv { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; font-size: 13.5px; }
.kv dt { color: var(--muted); }
.kv dd { margin: 0; }
pre { margin: 0; white-space: pre-wrap; word-break: break-word; background: var(--code-bg); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; line-height: 1.45; }
pre.output { max-height: 360px; overflow: auto; }
pre.diff { padding: 6px 0; }
pre.diff span { display: block; padding: 0 12px; }
pre.diff .add { background: var(--add-bg); color: var(--add-fg); }
pre.diff .remove { background: var(--del-bg); color: var(--del-fg); }
pre.diff .hunk { color: var(--faint); }
details { margin: 6px 0; }
details > summary { cursor: pointer; color: var(--text); }
details.case { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; }
details.case > summary { font-weight: 600; }
details.case > summary .muted { font-weight: 400; margin-left: 8px; }
details.case > summary .tag { font-weight: 400; margin-left: 8px; }
ul.checks, ul.verdicts { list-style: none; padding: 0; margin: 6px 0; }
ul.checks li, ul.verdicts li { padding: 3px 0; display: flex; gap: 8px; align-items: baseline; }
.mark { font-weight: 700; width: 1.2em; flex: none; text-align: center; }
.mark.ok { color: #1f9d55; } .mark.no { color: #d64545; } .mark.flag { color: #d4a017; }
.tag { font-size: 11px; border: 1px solid var(--line-strong); border-radius: 4px; padding: 0 5px; color: var(--muted); }
.tag.holdout { color: var(--holdout); border-color: var(--holdout); }
.chips { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0 6px; }
.chip { font-size: 12.5px; background: var(--code-bg); border: 1px solid var(--line); border-radius: 6px; padding: 1px 8px; font-variant-numeric: tabular-nums; }
blockquote { margin: 4px 0 0; padding: 2px 10px; border-left: 3px solid var(--line-strong); color: var(--muted); font-size: 13px; }
.two { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
@media (max-width: 820px) { .two { grid-template-columns: 1fr; } }
.spark path { fill: none; stroke: var(--accent); stroke-width: 1.6; }
.spark circle { fill: var(--accent); }
.note { font-size: 13px; color: var(--muted); }
.empty { color: var(--faint); font-style: italic; }
button.copy { font: inherit; font-size: 13px; padding: 4px 12px; border-radius: 6px; border: 1px solid var(--line-strong); background: var(--panel); color: var(--text); cursor: pointer; }
button.copy:hover { border-color: var(--accent); }
.besthead { display: flex; justify-content: space-between; align-items: center; gap: 12px; margin-bottom: 10px; }
.besthead h2 { margin: 0; }
footer { margin-top: 26px; font-size: 12.5px; color: var(--faint); }
footer li { margin: 2px 0; }
`;
