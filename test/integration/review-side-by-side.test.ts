/**
 * The judge and the graders both read only the finished outputs, so they run side by side:
 * fixture programs here succeed only while the other one is running (each waits for the
 * other's marker). When one of them fails, the other is stopped at once — its result could not
 * be used — and no process of either outlives the evaluation.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { evaluateCandidate } from '../../src/evaluate/evaluate-candidate.js';
import { createSandboxedReview } from '../../src/evaluate/sandboxed-review.js';
import type { Phase } from '../../src/run/events.js';
import { loadExperiment } from '../../src/experiment/load-experiment.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import { createScriptedProviders } from '../helpers/scripted-provider.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { isAlive } from '../helpers/process-alive.js';

const JUDGE = path.resolve('test/fixtures/judges/fault-judge.mjs');
const GRADER = path.resolve('test/fixtures/graders/fixture-grader.mjs');
const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: 'sk-test-not-a-real-key' };

async function evaluateWith(dir: string, judgeMode: string, graderMode: string) {
  const markers = path.join(dir, 'markers');
  const experimentDir = path.join(dir, 'experiments', 'side');
  await mkdir(markers, { recursive: true });
  // A hanging judge writes its child's pid to this file; the others use the folder.
  const judgeState = judgeMode === 'hang' ? path.join(markers, 'judge-child.pid') : markers;
  await mkdir(experimentDir, { recursive: true });
  await writeFile(path.join(experimentDir, 'prompt.md'), 'Write to {{name}}.\n');
  await writeFile(path.join(experimentDir, 'rubric.md'), '## Criteria\n\n### Clarity\n\n### Tone\n');
  await writeFile(
    path.join(experimentDir, 'cases.yaml'),
    stringify([
      { id: 'ada', vars: { name: 'Ada' }, expectations: ['Greets Ada by name', 'Asks a question'] },
      { id: 'bo', vars: { name: 'Bo' }, expectations: ['Greets Bo by name'] },
      { id: 'cy', vars: { name: 'Cy' } },
    ]),
  );
  await writeFile(
    path.join(experimentDir, 'experiment.yaml'),
    stringify({
      name: 'side',
      prompt: 'prompt.md',
      cases: 'cases.yaml',
      rubric: 'rubric.md',
      models: {
        generator: { provider: 'anthropic', model: 'gen', max_retries: 0 },
        judge: { command: [process.execPath, JUDGE, judgeMode, judgeState], timeout_s: 60 },
        grader: { command: [process.execPath, GRADER, graderMode, markers], timeout_s: 60 },
      },
      search: { holdout: 0 },
      concurrency: 2,
      // The fixtures meet through a shared host folder, which `os` isolation rightly hides.
      judging: { isolation: 'process' },
    }),
  );
  const { experiment } = await loadExperiment(experimentDir, { cwd: dir, env });
  const scripted = createScriptedProviders({ gen: () => 'Hello there, score:4. How are you?' });
  const pool = createModelPool({
    models: experiment.models,
    concurrency: 2,
    env,
    createProvider: scripted.factory,
  });
  const phases: Phase[] = [];
  const started = performance.now();
  try {
    const outcome = await evaluateCandidate(
      { experiment, prompt: experiment.prompt, cases: experiment.cases, samples: 1, sampleBase: 0, seed: 1 },
      {
        pool,
        env,
        ...createSandboxedReview(experiment, pool, { env }),
        onPhase: (phase) => {
          if (phases.at(-1) !== phase) phases.push(phase);
        },
      },
    );
    return { outcome, phases, markers, seconds: (performance.now() - started) / 1000 };
  } finally {
    await pool.close();
  }
}

describe('judge and graders side by side', () => {
  const tmp = useTempDir('review-side-by-side-');

  it('runs the graders while the judge runs, and scores both', async () => {
    // Run one after the other, each would wait in vain for the other and fail.
    const { outcome, phases } = await evaluateWith(tmp(), 'rendezvous', 'rendezvous');
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.judge?.perOutput.map((o) => [o.caseId, o.criteria]).sort()).toEqual([
      ['ada', { clarity: 4, tone: 4 }],
      ['bo', { clarity: 4, tone: 4 }],
      ['cy', { clarity: 4, tone: 4 }],
    ]);
    expect(outcome.gradings.map((g) => [g.caseId, g.grading.expectations.map((e) => e.passed)])).toEqual([
      ['ada', [true, false]],
      ['bo', [true]],
    ]);
    expect(outcome.scores.all.expectations).toBeCloseTo(2 / 3);
    // The journal still reads judging → grading → scoring.
    expect(phases).toEqual(['generating', 'checking', 'judging', 'grading', 'scoring']);
  });

  it('a failed judge stops the graders still at work: a judge_error, no grader left running', async () => {
    const { outcome, markers, seconds } = await evaluateWith(tmp(), 'garbage', 'hang');
    expect(outcome).toMatchObject({ ok: false, errorKind: 'judge_error' });
    if (!outcome.ok)
      expect(outcome.message).toMatch(/judge-scores.json is not valid JSON \(after 2 attempts\)/);
    // Not the graders' 60 s timeout.
    expect(seconds).toBeLessThan(30);
    const pid = Number(readFileSync(path.join(markers, 'grader.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(false);
  });

  it('a failed grader stops the judge: a grader_error naming the case, no judge left running', async () => {
    const { outcome, markers, seconds } = await evaluateWith(tmp(), 'hang', 'reword-after-judge');
    expect(outcome).toMatchObject({ ok: false, errorKind: 'grader_error' });
    if (!outcome.ok) expect(outcome.message).toMatch(/^case (ada|bo): .*is missing or was reworded/);
    expect(seconds).toBeLessThan(30);
    // The hanging judge's own child went with it (the whole process group is killed).
    const pid = Number(readFileSync(path.join(markers, 'judge-child.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(false);
  });
});
