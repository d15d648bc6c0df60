import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { AutoresearchError } from '../../errors.js';
import { compareRuns } from '../../report/compare-runs.js';
import { readRunSide } from '../../report/read-run-side.js';
import { serveReport } from '../../report/serve-report.js';
import { renderAndWriteReport } from '../../report/write-report.js';
import { resolveRunRef } from '../../run/run-ref.js';
import { terminal } from '../../ui/terminal.js';
import { runsDirOf } from '../runs-dir-option.js';

interface ReportOptions {
  serve?: boolean;
  port?: string;
  beside?: string;
}

export default async function reportCommand(
  runId: string,
  options: ReportOptions,
  command: Command,
): Promise<number> {
  const runsDir = runsDirOf(command);
  const port = parsePort(options.port);
  if (options.port !== undefined && !options.serve) {
    throw new AutoresearchError('E_USAGE', '--port only applies with --serve', {
      hint: `serve the report with \`autoresearch report ${runId} --serve --port ${options.port}\``,
    });
  }
  if (options.beside !== undefined && options.serve) {
    throw new AutoresearchError(
      'E_USAGE',
      '--beside writes a page of its own; it does not combine with --serve',
      {
        hint: `write it with \`autoresearch report ${runId} --beside ${options.beside}\` and open the file`,
      },
    );
  }
  const { id, dir } = await resolveRunRef(runsDir, runId);
  const term = terminal();
  if (!options.serve) {
    const beside =
      options.beside === undefined
        ? undefined
        : compareRuns(
            ...(await Promise.all([readRunSide(runsDir, id), readRunSide(runsDir, options.beside)])),
          );
    const { file, problems } = await renderAndWriteReport(dir, beside === undefined ? {} : { beside });
    for (const problem of problems) term.err(term.colors.yellow(`warning: ${problem}`));
    term.out(`Wrote ${file}`);
    term.out(term.colors.dim(`Open ${pathToFileURL(file).href} in a browser; it needs no network.`));
    return 0;
  }
  const server = await serveReport(dir, { port });
  term.out(`Serving the report of ${id} at ${server.url}`);
  term.out(
    term.colors.dim('127.0.0.1 only, read-only; it refreshes while the run goes on. Ctrl-C stops it.'),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new AutoresearchError('E_USAGE', `--port must be a port number (0–65535), got "${text}"`, {
      hint: 'leave --port out to use any free port',
    });
  }
  return port;
}
