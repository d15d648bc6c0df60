/**
 * Every run in a runs folder, summarised for `runs` and `watch`: its journal folded, its
 * manifest and lock read, and whatever is wrong with them listed instead of thrown.
 */
import { join } from 'node:path';
import { isAutoresearchError } from '../errors.js';
import { pathExists } from './errno.js';
import { readJournal } from './journal.js';
import { readLockStatus } from './lock.js';
import { readManifest, type Manifest } from './manifest.js';
import { runPaths } from './paths.js';
import type { ProcessProbe } from './process-identity.js';
import { reduceRun } from './reducer.js';
import { listRunIds } from './run-id.js';
import { sortNewestFirst, summarizeRun, type RunSummary } from './run-summary.js';

export interface ListRunsDeps {
  probe?: ProcessProbe;
}

/** Every run folder (one holding events.jsonl or manifest.json), newest first. */
export async function listRuns(runsDir: string, deps: ListRunsDeps = {}): Promise<RunSummary[]> {
  const ids = await listRunIds(runsDir);
  const summaries = await Promise.all(ids.map((id) => summarizeFolder(join(runsDir, id), id, deps)));
  return sortNewestFirst(summaries.filter((s): s is RunSummary => s !== null));
}

async function summarizeFolder(dir: string, id: string, deps: ListRunsDeps): Promise<RunSummary | null> {
  const paths = runPaths(dir);
  const [hasEvents, hasManifest] = await Promise.all([pathExists(paths.events), pathExists(paths.manifest)]);
  if (!hasEvents && !hasManifest) return null;
  const problems: string[] = [];
  const journal = await readJournal(dir, { onInvalid: 'collect' });
  for (const invalid of journal.invalidLines) {
    problems.push(`events.jsonl line ${invalid.line}: ${invalid.message}`);
  }
  let manifest: Manifest | null = null;
  if (hasManifest) {
    try {
      manifest = await readManifest(dir);
    } catch (error) {
      if (!isAutoresearchError(error)) throw error;
      problems.push(error.message);
    }
  } else {
    problems.push('manifest.json is missing');
  }
  const lock = await readLockStatus(dir, deps);
  return summarizeRun({
    id,
    dir,
    state: reduceRun(journal.events),
    lock,
    manifest: manifest && {
      kind: manifest.kind,
      experiment: manifest.experiment.name,
      createdAt: manifest.createdAt,
    },
    problems,
  });
}
