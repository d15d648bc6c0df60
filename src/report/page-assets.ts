/**
 * The report page's script and stylesheet, which `npm run build` makes from
 * src/report/browser/ (scripts/build-report-page.mjs) into dist/report-page/. Read from the
 * package root, so the installed CLI and the tests running src/ under vitest (which build
 * first) inline the same files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPackageRoot } from '../package-root.js';
import { isErrno } from '../run/errno.js';

export interface PageAssets {
  script: string;
  style: string;
}

let assets: PageAssets | undefined;

export function readPageAssets(): PageAssets {
  if (assets) return assets;
  const dir = join(findPackageRoot(), 'dist', 'report-page');
  assets = { script: readAsset(join(dir, 'page.js')), style: readAsset(join(dir, 'page.css')) };
  return assets;
}

function readAsset(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT'))
      throw new Error(`the report page is not built (${file} is missing): run \`npm run build\``);
    throw error;
  }
}
