import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendEvents } from '../../../src/run/journal.js';
import { type Manifest, writeManifest } from '../../../src/run/manifest.js';
import { readMeasuredNoise } from '../../../src/run/measured-noise.js';
import { sha256Hex } from '../../../src/sha256.js';
import { JournalBuilder, promptSha } from '../../fixtures/runs/journal-builder.js';

const root = await mkdtemp(join(tmpdir(), 'ar-noise-'));
afterAll(() => rm(root, { recursive: true, force: true }));

function manifest(
  runId: string,
  experiment: string,
  createdAt: string,
  search: Record<string, unknown>,
): Manifest {
  const digest = sha256Hex(runId);
  return {
    version: 2,
    kind: 'run',
    runId,
    createdAt,
    toolVersion: '0.2.0',
    projectRoot: '/project',
    experiment: {
      name: experiment,
      file: `experiments/${experiment}/experiment.yaml`,
      prompt: `experiments/${experiment}/prompt.md`,
      cases: `experiments/${experiment}/cases.yaml`,
      rubric: null,
    },
    config: { search },
    overrides: {},
    hashes: { prompt: digest, cases: digest, rubric: null, checks: digest },
    caseHashes: {},
    rubricCriteria: null,
    checks: [],
    models: {},
    git: null,
  };
}

/** A run whose iterations were decided with these train sds (looks 2 where asked). */
async function writeRun(
  runsDir: string,
  id: string,
  options: {
    experiment?: string;
    createdAt: string;
    samples?: number;
    retest?: number;
    sds: [number, 1 | 2][];
  },
): Promise<void> {
  const experiment = options.experiment ?? 'faq';
  const dir = join(runsDir, id);
  await mkdir(dir, { recursive: true });
  await writeManifest(
    dir,
    manifest(id, experiment, options.createdAt, {
      samples: options.samples ?? 1,
      retest: options.retest ?? 1,
    }),
  );
  const builder = new JournalBuilder(options.createdAt).start({ runId: id, experiment }).baseline([0.5]);
  options.sds.forEach(([sd, looks], i) => {
    builder.push({
      type: 'iteration_finished',
      iteration: i + 1,
      status: 'discard',
      candidate: 0,
      train: 0.5,
      holdout: 0.5,
      incumbentBefore: 0.5,
      delta: 0,
      paired: {
        confidence: 0.95,
        looks,
        train: { n: 10, mean: 0, sd, lo: -0.1, hi: 0.1 },
        holdout: null,
        wins: 3,
        losses: 3,
        ties: 4,
      },
      hypothesis: `idea ${i + 1}`,
      promptSha256: promptSha(`prompt ${i + 1}`),
      costUsd: 0.01,
      seconds: 10,
    });
  });
  await appendEvents(dir, builder.events);
}

describe('readMeasuredNoise', () => {
  it('is null without runs, or without a run of this experiment', async () => {
    expect(await readMeasuredNoise(join(root, 'none'), 'faq')).toBeNull();
    const runsDir = join(root, 'other');
    await writeRun(runsDir, '20261201-0900-other-a001', {
      experiment: 'other',
      createdAt: '2026-12-01T09:00:00.000Z',
      sds: [[0.1, 1]],
    });
    expect(await readMeasuredNoise(runsDir, 'faq')).toBeNull();
  });

  it('takes the newest run with paired decisions and the median of its sds, put back on one sample', async () => {
    const runsDir = join(root, 'runs');
    await writeRun(runsDir, '20261130-0900-faq-old1', {
      createdAt: '2026-11-30T09:00:00.000Z',
      sds: [[0.5, 1]],
    });
    // 2 samples, retest 2: a first look used 2 samples per case, a retested one 4.
    await writeRun(runsDir, '20261201-0900-faq-new1', {
      createdAt: '2026-12-01T09:00:00.000Z',
      samples: 2,
      retest: 2,
      sds: [
        [0.1, 1],
        [0.05, 2],
        [0.2, 1],
      ],
    });
    // Newer still, but it decided nothing yet: passed over.
    await writeRun(runsDir, '20261202-0900-faq-empty', { createdAt: '2026-12-02T09:00:00.000Z', sds: [] });
    // A damaged folder is passed over too.
    await mkdir(join(runsDir, '20261203-0900-faq-bad1'));
    await writeFile(join(runsDir, '20261203-0900-faq-bad1', 'manifest.json'), '{ not json');
    const noise = await readMeasuredNoise(runsDir, 'faq');
    expect(noise?.runId).toBe('20261201-0900-faq-new1');
    expect(noise?.decisions).toBe(3);
    // 0.1·√2 ≈ 0.141, 0.05·√4 = 0.1, 0.2·√2 ≈ 0.283: the median is 0.1·√2.
    expect(noise?.sdPerSample).toBeCloseTo(0.1 * Math.SQRT2, 12);
  });
});
