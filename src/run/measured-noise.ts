/**
 * How much per-case differences spread in an experiment's latest run
 * (docs/design/paired-acceptance.md), for `validate`'s smallest detectable effect: the median
 * standard deviation of the train differences over that run's paired decisions. Reads manifests and
 * one journal; a damaged run is passed over, never reported (that is `runs`' job).
 */
import { join } from 'node:path';
import { readJournal } from './journal.js';
import { type Manifest, readManifestOrNull } from './manifest.js';
import { listRunIds } from './run-id.js';

export interface MeasuredNoise {
  runId: string;
  /** Paired decisions the median is taken over. */
  decisions: number;
  /** The median sd of per-case train differences, as if each case had one sample. */
  sdPerSample: number;
}

/**
 * The newest run of `experiment` (kind `run`) that took at least one paired decision, or null.
 * A case's difference is a mean over its samples, so its spread shrinks with √samples; each
 * decision's sd is put back on one sample (a retested one had `samples + retest`) before the
 * median, and the caller scales it to the samples it plans.
 */
export async function readMeasuredNoise(runsDir: string, experiment: string): Promise<MeasuredNoise | null> {
  const ids = await listRunIds(runsDir);
  const manifests = await Promise.all(
    ids.map(async (id) => ({ id, manifest: await readManifestOrNull(join(runsDir, id)) })),
  );
  const runs = manifests
    .filter(
      (r): r is { id: string; manifest: Manifest } =>
        r.manifest !== null && r.manifest.kind === 'run' && r.manifest.experiment.name === experiment,
    )
    .sort(
      (a, b) => Date.parse(b.manifest.createdAt) - Date.parse(a.manifest.createdAt) || (a.id < b.id ? 1 : -1),
    );
  for (const { id, manifest } of runs) {
    const { samples, retest } = samplesOf(manifest);
    const journal = await readJournal(join(runsDir, id), { onInvalid: 'collect' });
    const sds: number[] = [];
    for (const event of journal.events) {
      if (event.type !== 'iteration_finished' || event.paired === undefined) continue;
      if (event.paired.train.n < 2) continue;
      // A grouped interval's sd is that of group means, not of per-case differences.
      if (event.paired.train.groups !== undefined) continue;
      const used = event.paired.looks === 2 ? samples + retest : samples;
      sds.push(event.paired.train.sd * Math.sqrt(used));
    }
    if (sds.length > 0) return { runId: id, decisions: sds.length, sdPerSample: median(sds) };
  }
  return null;
}

/** The run's samples and retest as its manifest recorded them (defaults and overrides applied). */
function samplesOf(manifest: Manifest): { samples: number; retest: number } {
  const search = manifest.config['search'] as Record<string, unknown> | undefined;
  const samples = search?.['samples'];
  const retest = search?.['retest'];
  return {
    samples: typeof samples === 'number' && samples >= 1 ? samples : 1,
    retest: typeof retest === 'number' && retest >= 0 ? retest : 0,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
