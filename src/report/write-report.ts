/**
 * `runs/<id>/report.html`, written atomically: read the folder, build the model, render,
 * replace the file. The loop refreshes it through `createReportRefresher`, which writes at
 * most once per interval while the run goes on (never per model call) and always at the end.
 */
import { join } from 'node:path';
import { runPaths } from '../run/paths.js';
import { writeTextAtomic } from '../run/records.js';
import { VERSION } from '../version.js';
import { buildReportData } from './build-report-data.js';
import type { RunComparison } from './compare-runs.js';
import { readRunFolder } from './read-run-folder.js';
import { renderReportHtml } from './render-html.js';

export interface WriteReportOptions {
  now?: () => Date;
  /**
   * Another run to show beside this one (`report --beside`): the page gains the comparison and
   * is written to `beside-<other id>.html` in the run folder, leaving report.html as it is.
   */
  beside?: RunComparison;
}

/** Where `report <run> --beside <other>` writes its page. */
export function besideReportPath(runDir: string, otherId: string): string {
  return join(runDir, `beside-${otherId}.html`);
}

/** Writes the report and returns its path. */
export async function writeReport(runDir: string, options: WriteReportOptions = {}): Promise<string> {
  return (await renderAndWriteReport(runDir, options)).file;
}

/** Writes the report and returns what it wrote (for the server to send as is) and the damaged files it met. */
export async function renderAndWriteReport(
  runDir: string,
  options: WriteReportOptions = {},
): Promise<{ file: string; html: string; stamp: string; problems: string[] }> {
  const folder = await readRunFolder(runDir);
  const built = buildReportData(folder, { now: (options.now ?? (() => new Date()))(), toolVersion: VERSION });
  const data = options.beside === undefined ? built : { ...built, beside: options.beside };
  const file =
    options.beside === undefined ? runPaths(runDir).report : besideReportPath(runDir, options.beside.b.id);
  const html = renderReportHtml(data);
  // Derived from the run folder and rewritten at every refresh: no fsync.
  await writeTextAtomic(file, html, { durable: false });
  return { file, html, stamp: data.stamp, problems: data.problems };
}

export interface ReportRefresher {
  /** Writes the report unless one was written less than `minIntervalMs` ago; true when it wrote. */
  maybeRefresh(): Promise<boolean>;
  /** Writes the report now (at the end of a run), after any write in flight. */
  refreshNow(): Promise<void>;
}

export interface RefresherOptions {
  minIntervalMs?: number;
  now?: () => number;
  /** The writer; defaults to `writeReport`. */
  write?: (runDir: string) => Promise<unknown>;
}

export function createReportRefresher(runDir: string, options: RefresherOptions = {}): ReportRefresher {
  const minIntervalMs = options.minIntervalMs ?? 30_000;
  const now = options.now ?? Date.now;
  const write = options.write ?? ((dir: string) => writeReport(dir));
  let lastStart: number | null = null;
  let inFlight: Promise<void> | null = null;

  const run = (): Promise<void> => {
    lastStart = now();
    const current = Promise.resolve()
      .then(() => write(runDir))
      .then(() => undefined)
      .finally(() => {
        if (inFlight === current) inFlight = null;
      });
    inFlight = current;
    return current;
  };

  return {
    async maybeRefresh() {
      if (inFlight) return false;
      if (lastStart !== null && now() - lastStart < minIntervalMs) return false;
      await run();
      return true;
    },
    async refreshNow() {
      if (inFlight) await inFlight.catch(() => {});
      await run();
    },
  };
}
