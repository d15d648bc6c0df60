import { watch as watchFiles } from 'chokidar';
import type { Command } from 'commander';
import { startWatchSession, type WatchClock } from '../../report/watch-session.js';
import { readJournal } from '../../run/journal.js';
import { runPaths } from '../../run/paths.js';
import { resolveRunRef } from '../../run/run-ref.js';
import { listRuns } from '../../run/list-runs.js';
import { terminal } from '../../ui/terminal.js';
import { runsDirOf } from '../runs-dir-option.js';

const SEARCH_POLL_MS = 2000;

export default async function watchCommand(
  runId: string | undefined,
  _options: unknown,
  command: Command,
): Promise<number> {
  const runsDir = runsDirOf(command);
  const term = terminal();
  const clock: WatchClock = {
    now: () => new Date(),
    every: (ms, tick) => {
      const timer = setInterval(tick, ms);
      return () => clearInterval(timer);
    },
    after: (ms, fire) => {
      const timer = setTimeout(fire, ms);
      return () => clearTimeout(timer);
    },
  };
  let interrupted = false;
  let leave: () => void = () => {};
  const left = new Promise<void>((resolve) => {
    leave = resolve;
  });
  const onSignal = () => {
    interrupted = true;
    leave();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const target =
      runId === undefined
        ? await waitForRunningRun(runsDir, clock, left)
        : await resolveRunRef(runsDir, runId);
    if (target === null) return 130;
    const events = runPaths(target.dir).events;
    const session = startWatchSession(target.id, {
      readEvents: async () => {
        const journal = await readJournal(target.dir, { onInvalid: 'collect' });
        return journal.events.length === 0 ? null : journal.events;
      },
      watch: (onChange) => {
        const watcher = watchFiles(events, { ignoreInitial: true, persistent: true });
        watcher.on('all', onChange);
        return { close: () => watcher.close() };
      },
      clock,
      output: {
        tty: term.isTTY,
        width: () => term.width,
        colors: term.colors,
        write: (text) => term.out(text),
        rewind: (lines) => term.rewind(lines),
      },
    });
    await Promise.race([session.done, left]);
    await session.close();
    return interrupted ? 130 : 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The newest run a live process is running; waits for one to start when there is none. Null when left early. */
async function waitForRunningRun(
  runsDir: string,
  clock: WatchClock,
  left: Promise<void>,
): Promise<{ id: string; dir: string } | null> {
  const find = async () => (await listRuns(runsDir)).find((run) => run.status === 'running') ?? null;
  const first = await find();
  if (first) return first;
  const term = terminal();
  term.err(term.colors.dim(`No run is running in ${runsDir}; waiting for one to start (Ctrl-C to leave).`));
  const watcher = watchFiles(runsDir, { ignoreInitial: true, persistent: true, depth: 1 });
  let stopPolling: () => void = () => {};
  try {
    const found = new Promise<{ id: string; dir: string }>((resolve, reject) => {
      let checking = false;
      const check = () => {
        if (checking) return;
        checking = true;
        find()
          .then((run) => {
            if (run) resolve(run);
          }, reject)
          .finally(() => {
            checking = false;
          });
      };
      watcher.on('all', check);
      stopPolling = clock.every(SEARCH_POLL_MS, check);
    });
    return await Promise.race([found, left.then(() => null)]);
  } finally {
    stopPolling();
    await watcher.close();
  }
}
