// Builds the report page (src/report/browser/) into dist/report-page/: the script as one
// classic IIFE, and the stylesheet beside it. render-html.ts reads both from there and
// inlines them, so report.html stays one self-contained file while the browser code lives in
// real files that biome lints and tsc checks (src/report/browser/tsconfig.json).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/report-page`;

const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/report/browser/main.ts'],
  bundle: true,
  write: false,
  // A classic script (an inline module would need the page to allow more than one hash).
  format: 'iife',
  // Browser, not Node: a Node import reaching the page fails here instead of in the reader's browser.
  platform: 'browser',
  target: 'es2017',
  // Not minified, so "view source" on a report reads like src/report/browser/.
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
});
if (result.errors.length > 0) process.exit(1);
const script = result.outputFiles[0]?.text ?? '';
const style = readFileSync(`${root}src/report/browser/report.css`, 'utf8');
// Either would end its inline element early and let what follows be read as markup.
if (/<\/script/i.test(script)) throw new Error('the report script must not contain a closing script tag');
if (/<\/style/i.test(style)) throw new Error('the report stylesheet must not contain a closing style tag');

mkdirSync(outdir, { recursive: true });
writeFileSync(`${outdir}/page.js`, script);
writeFileSync(`${outdir}/page.css`, style);
