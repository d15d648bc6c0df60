/**
 * `validate` reads the experiment's latest run for its per-case noise
 * (docs/design/paired-acceptance.md): the detectable gain in `--json` comes from that run's paired
 * decisions, and from the stated default when the runs folder holds none of this experiment.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pc from 'picocolors';
import { afterAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/commands/validate.js';
import { DEFAULT_DIFFERENCE_SD } from '../../src/experiment/plan-acceptance.js';
import { appendEvents } from '../../src/run/journal.js';
import { writeManifest } from '../../src/run/manifest.js';
import type { Terminal } from '../../src/ui/terminal.js';
import { JournalBuilder, promptSha } from '../fixtures/runs/journal-builder.js';

const BASIC = resolve(import.meta.dirname, '../fixtures/experiments/basic');
const root = await mkdtemp(join(tmpdir(), 'ar-validate-noise-'));
afterAll(() => rm(root, { recursive: true, force: true }));

async function validateJson(runsDir: string) {
  const stdout: string[] = [];
  const term: Terminal = {
    out: (text) => stdout.push(text),
    err: () => undefined,
    colors: pc.createColors(false),
    isTTY: false,
    errIsTTY: false,
    status: () => undefined,
    rewind: () => undefined,
    width: 100,
  };
  const code = await runValidate(BASIC, { json: true }, { cwd: root, env: {}, term, runsDir });
  expect(code).toBe(0);
  return JSON.parse(stdout.join('\n')).plan.acceptance;
}

describe('validate and the measured noise', () => {
  it('uses the default spread without a run, and the latest run’s decisions once there is one', async () => {
    const runsDir = join(root, 'runs');
    const before = await validateJson(runsDir);
    expect(before.detectable.from).toEqual({ default: DEFAULT_DIFFERENCE_SD });

    const id = '20261201-0900-basic-ab12';
    const dir = join(runsDir, id);
    await mkdir(dir, { recursive: true });
    await writeManifest(dir, {
      version: 2,
      kind: 'run',
      runId: id,
      createdAt: '2026-12-01T09:00:00.000Z',
      toolVersion: '0.1.0',
      projectRoot: root,
      experiment: { name: 'basic', file: 'e.yaml', prompt: 'p.md', cases: 'c.yaml', rubric: null },
      // The run took 1 sample per case; the experiment plans 2.
      config: { search: { samples: 1, retest: 1 } },
      overrides: {},
      hashes: { prompt: 'a'.repeat(64), cases: 'a'.repeat(64), rubric: null, checks: 'a'.repeat(64) },
      caseHashes: {},
      rubricCriteria: null,
      checks: [],
      models: {},
      git: null,
    });
    const journal = new JournalBuilder('2026-12-01T09:00:00.000Z').start({ runId: id, experiment: 'basic' });
    journal.push({
      type: 'iteration_finished',
      iteration: 1,
      status: 'discard',
      candidate: 0,
      train: 0.5,
      holdout: 0.5,
      incumbentBefore: 0.5,
      delta: 0,
      paired: {
        confidence: 0.95,
        looks: 1,
        train: { n: 4, mean: 0, sd: 0.08, lo: -0.1, hi: 0.1 },
        holdout: null,
        wins: 1,
        losses: 1,
        ties: 2,
      },
      hypothesis: 'idea',
      promptSha256: promptSha('prompt'),
      costUsd: 0,
      seconds: 1,
    });
    await appendEvents(dir, journal.events);

    const after = await validateJson(runsDir);
    expect(after.detectable.from).toEqual({ run: id, decisions: 1 });
    expect(after.detectable.sd).toBeCloseTo(0.08 / Math.SQRT2, 12);
    expect(after.detectable.effect).toBeLessThan(before.detectable.effect);
  });
});
