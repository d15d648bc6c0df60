/**
 * `models.judge: { panel: [...], aggregate }` (docs/design/judge-reliability.md) as the loader, the
 * plan and the cost estimate see it: every member validated where it sits, each counted and priced.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import { applyOverrides } from '../../../src/experiment/overrides.js';
import { buildPlan } from '../../../src/experiment/plan.js';
import { createModelPool } from '../../../src/providers/model-pool.js';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/experiments/judge-panel');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The fixture with its `judge:` block replaced. */
function withJudge(judge: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ar-panel-'));
  made.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  const file = join(dir, 'experiment.yaml');
  const text = readFileSync(file, 'utf8').replace(
    / {2}judge:\n {4}panel:\n(?: {6}- .*\n)+ {4}aggregate: median\n/,
    `  judge:\n${judge}`,
  );
  writeFileSync(file, text);
  return dir;
}

async function problemsOf(dir: string) {
  try {
    await loadExperiment(dir, { cwd: dir, env: {} });
  } catch (error) {
    if (error instanceof ValidationError)
      return error.problems
        .filter((p) => p.severity === 'error')
        .map((p) => ({ line: p.location.line, keyPath: p.keyPath, message: p.message }));
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('a judge panel in experiment.yaml', () => {
  it('loads, and the plan lists each member, counts its calls and prices them', async () => {
    const dir = withJudge(
      [
        '    panel:',
        '      - { provider: openai, model: judge-a, samples: 2, price: { input_per_mtok: 1, output_per_mtok: 1 } }',
        '      - { provider: openai, model: judge-b, price: { input_per_mtok: 4, output_per_mtok: 4 } }',
        '    aggregate: mean',
        '',
      ].join('\n'),
    );
    const { experiment } = await loadExperiment(dir, { cwd: dir, env: { OPENAI_API_KEY: 'k' } });
    expect(experiment.models.judge).toMatchObject({
      aggregate: 'mean',
      panel: [{ model: 'judge-a' }, { model: 'judge-b' }],
    });
    const plan = buildPlan(experiment);
    expect(plan.models.filter((m) => m.role === 'judge')).toMatchObject([
      { label: 'openai/judge-a', panel: { member: 0, of: 2, aggregate: 'mean' } },
      { label: 'openai/judge-b', panel: { member: 1, of: 2, aggregate: 'mean' } },
    ]);
    // 5 cases × (2 samples of judge-a + 1 of judge-b).
    expect(plan.calls.perEvaluation.judge).toBe(15);
    const judge = plan.cost.roles.find((r) => r.role === 'judge');
    const tokens = (judge?.perCall.input ?? 0) + (judge?.perCall.output ?? 0);
    // Per call: the members' prices weighted by their calls, (2 × $1 + 1 × $4) / 3 per million tokens.
    expect(judge?.perIterationUsd).toBeCloseTo((15 * tokens * 2) / 1e6, 10);
  });

  it('gives each model member its own client, its calls on the judge’s account', async () => {
    const { experiment } = await loadExperiment(FIXTURE, { cwd: FIXTURE, env: {} });
    const pool = createModelPool({ models: experiment.models, concurrency: 2, env: {} });
    expect(pool.has('judge')).toBe(false);
    expect([pool.has('judge', 0), pool.has('judge', 1), pool.has('judge', 2)]).toEqual([true, true, false]);
    expect(pool.client('judge', 1)).toMatchObject({ role: 'judge', entry: { model: 'sim-judge-b' } });
    await pool.close();
  });

  it('refuses a panel of one, an unknown aggregate and a bad member, each at its line and key path', async () => {
    expect(await problemsOf(withJudge('    panel:\n      - { provider: sim }\n'))).toEqual([
      { line: 13, keyPath: 'models.judge.panel', message: expect.stringContaining('at least two judges') },
    ]);
    expect(
      await problemsOf(
        withJudge('    panel:\n      - { provider: sim }\n      - { provder: sim }\n    aggregate: mode\n'),
      ),
    ).toEqual(
      expect.arrayContaining([
        { line: 15, keyPath: 'models.judge.panel[1].provder', message: 'unknown key `provder`' },
        { line: 16, keyPath: 'models.judge.aggregate', message: '"mode" is not one of: median, mean' },
      ]),
    );
    expect(
      await problemsOf(
        withJudge('    panel:\n      - { provider: anthropic }\n      - { command: [node, j.mjs] }\n'),
      ),
    ).toEqual([
      { line: 14, keyPath: 'models.judge.panel[0]', message: 'provider `anthropic` needs `model`' },
    ]);
  });

  it('takes --judge-samples on every model member and --provider sim on every member', async () => {
    const dir = withJudge(
      [
        '    panel:',
        '      - { provider: openai, model: judge-a }',
        '      - { command: [node, judge.mjs] }',
        '',
      ].join('\n'),
    );
    const { experiment } = await loadExperiment(dir, { cwd: dir, env: { OPENAI_API_KEY: 'k' } });
    const sampled = applyOverrides(experiment, { judgeSamples: '3' }).experiment.models.judge;
    expect(sampled).toEqual({
      aggregate: 'median',
      panel: [{ provider: 'openai', model: 'judge-a', samples: 3 }, { command: ['node', 'judge.mjs'] }],
    });
    const simulated = applyOverrides(experiment, { provider: 'sim' });
    expect(simulated.experiment.models.judge).toEqual({
      aggregate: 'median',
      panel: [
        { provider: 'sim', model: 'judge-a' },
        { provider: 'sim', model: 'sim-2', temperature: 0 },
      ],
    });
    expect(simulated.notes.join('\n')).toContain(
      'replaces the judge program (node judge.mjs) with the built-in judge',
    );
  });
});
