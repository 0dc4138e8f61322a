/** The page's stylesheet, inlined into every report. */
export const REPORT_STYLE = `
:root { font-family: system-ui, sans-serif; color: #1d2430; background: #f6f7f9; }
body { margin: 0; padding: 0 1.5rem 2rem; }
header { display: flex; align-items: center; justify-content: space-between; gap: 1rem; border-bottom: 1px solid #d5d9e0; }
h1 { font-size: 1.3rem; } h2 { font-size: 1.1rem; margin: 1.2rem 0 .5rem; } h3 { font-size: .95rem; margin: .8rem 0 .4rem; }
.toggle button { border: 1px solid #8a94a6; background: #fff; padding: .3rem .8rem; cursor: pointer; }
.toggle button[aria-pressed="true"] { background: #1d2430; color: #fff; }
.runs { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 1.5rem; }
.summary { color: #4a5468; font-size: .9rem; }
.zones { display: flex; flex-wrap: wrap; gap: 1rem; }
.zone { background: #fff; border: 1px solid #d5d9e0; border-radius: 6px; padding: .5rem .7rem; }
.zone h3 { margin-top: 0; }
.cells { display: flex; flex-wrap: wrap; gap: .4rem; max-width: 31.5rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; font-size: .9rem; } dd { margin: 0; }
.node-cell { width: 10rem; height: 4.2rem; border: 2px solid transparent; border-radius: 4px; color: #fff; text-align: left; padding: .3rem .4rem; cursor: pointer; font-size: .75rem; overflow: hidden; }
.node-cell span { display: block; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.node-cell .value { font-size: 1.05rem; font-weight: 600; }
.node-cell.cordoned { outline: 2px dashed #1d2430; outline-offset: -4px; }
.node-cell[aria-expanded="true"] { border-color: #1d2430; }
.legend { font-size: .8rem; color: #4a5468; margin: .4rem 0; }
.panel { background: #fff; border: 1px solid #d5d9e0; border-radius: 6px; padding: .6rem .9rem; margin-top: 1rem; }
.pod-link { background: none; border: none; padding: 0; color: #1849a9; text-decoration: underline; cursor: pointer; font: inherit; text-align: left; }
ul.pods { columns: 2; margin: .3rem 0; padding-left: 1.2rem; font-size: .85rem; }
.reason { font-family: ui-monospace, monospace; font-size: .85rem; white-space: pre-wrap; background: #f1f3f6; padding: .3rem .5rem; border-radius: 4px; }
table { border-collapse: collapse; font-size: .82rem; margin: .3rem 0 .8rem; }
th, td { border-bottom: 1px solid #e3e6eb; padding: .2rem .6rem .2rem 0; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.moved { color: #8a3b00; }
`;
