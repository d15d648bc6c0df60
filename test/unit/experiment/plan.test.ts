import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countCalls } from '../../../src/experiment/count-calls.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import { buildPlan } from '../../../src/experiment/plan.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/experiments');
const root = mkdtempSync(join(tmpdir(), 'ar-plan-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function loadWith(experimentYaml: string, cases: string, prompt = 'Write {{x}}.') {
  const dir = mkdtempSync(join(root, 'exp-'));
  writeFileSync(join(dir, 'experiment.yaml'), experimentYaml);
  writeFileSync(join(dir, 'cases.yaml'), cases);
  writeFileSync(join(dir, 'prompt.md'), prompt);
  return (await loadExperiment(dir, { cwd: dir, env: {} })).experiment;
}

describe('countCalls', () => {
  it('counts calls per evaluation, per iteration, for the baseline and the final check', async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'basic'), { cwd: FIXTURES, env: {} });
    // 5 cases × 2 samples; 2 candidates; judge samples 2; one case with expectations.
    expect(countCalls(experiment)).toEqual({
      perEvaluation: { generator: 10, mutator: 0, judge: 20, grader: 1 },
      evaluationsPerIteration: 2,
      perIteration: { generator: 20, mutator: 2, judge: 40, grader: 2 },
      baselineEvaluations: 3,
      finalEvaluations: 2,
      programRuns: {},
    });
  });

  it('adds one evaluation when confirm re-checks a would-be keep', async () => {
    const experiment = await loadWith(
      'name: c\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: sim }\nchecks: [{ type: contains, value: a }]\nsearch: { confirm: true, candidates: 3 }\n',
      '- vars: { x: a }\n',
    );
    const calls = countCalls(experiment);
    expect(calls.evaluationsPerIteration).toBe(4);
    expect(calls.perIteration).toEqual({ generator: 4, mutator: 3, judge: 0, grader: 0 });
  });

  it('counts judge and grader programs as runs, not model calls', async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'program-judge'), { cwd: '/', env: {} });
    const calls = countCalls(experiment);
    expect(calls.perEvaluation).toEqual({ generator: 2, mutator: 0, judge: 0, grader: 1 });
    expect(calls.programRuns).toEqual({ judge: 1 });
  });
});

describe('buildPlan', () => {
  it('estimates the cost from the price table, per iteration and for the whole budget', async () => {
    const experiment = await loadWith(
      'name: c\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: anthropic, model: claude-haiku-4-5, max_tokens: 100 }\nchecks: [{ type: contains, value: a }]\nbudget: { iterations: 10 }\n',
      '- vars: { x: abcd }\n- vars: { x: efgh }\n',
    );
    const { cost } = buildPlan(experiment);
    // claude-haiku-4-5: $1 in / $5 out per Mtok. Generator: "Write abcd." = 3 tokens in, 100 out.
    const generatorCall = (3 * 1 + 100 * 5) / 1e6;
    // Mutator (defaulted): 1500 overhead + 3 prompt tokens + 1 train case × 250; output capped at 100.
    const mutatorCall = (1753 * 1 + 100 * 5) / 1e6;
    expect(cost.perIterationUsd).toBeCloseTo(2 * generatorCall + mutatorCall, 12);
    expect(cost.baselineUsd).toBeCloseTo(3 * 2 * generatorCall, 12);
    expect(cost.finalUsd).toBeCloseTo(2 * 2 * generatorCall, 12);
    expect(cost.totalUsd).toBeCloseTo(5 * 2 * generatorCall + 10 * (2 * generatorCall + mutatorCall), 12);
  });

  it('says the cost is unknown when a role has no price, and which role', async () => {
    const experiment = await loadWith(
      'name: c\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: sim }\n  mutator: { provider: openai, model: my-local-model, base_url: "http://127.0.0.1:9/v1" }\nchecks: [{ type: contains, value: a }]\n',
      '- vars: { x: abcd }\n',
    );
    const { cost } = buildPlan(experiment);
    expect(cost.perIterationUsd).toBeNull();
    expect(cost.totalUsd).toBeNull();
    expect(cost.roles.find((r) => r.role === 'mutator')?.unknownBecause).toContain('openai/my-local-model');
    expect(cost.roles.find((r) => r.role === 'generator')?.perIterationUsd).toBe(0);
  });

  it('describes cases, checks, rubric and where each model came from', async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'basic'), { cwd: FIXTURES, env: {} });
    const plan = buildPlan(experiment);
    expect(plan.cases.total).toBe(5);
    expect(plan.cases.holdout).toEqual(['rainbows']);
    expect(plan.cases.train).toHaveLength(4);
    expect(plan.checks).toEqual({
      global: ['word-count: <= 80', 'not-icontains-any: basically, literally', 'ends-with-period'],
      perCase: 1,
      casesWithChecks: 1,
      gates: 1,
    });
    expect(plan.prompt.placeholders).toEqual(['audience', 'topic']);
    expect(plan.rubric?.criteria.map((c) => [c.key, c.weight])).toEqual([
      ['clarity', 2],
      ['scientific_accuracy', 1],
    ]);
    expect(plan.models.map((m) => [m.role, m.label, m.origin, m.simulated])).toEqual([
      ['generator', 'sim', 'configured', true],
      ['mutator', 'sim', 'defaulted from generator', true],
      ['judge', 'sim', 'configured', true],
      ['grader', 'sim', 'defaulted from judge', true],
    ]);
    expect(plan.cost.totalUsd).toBe(0);
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });
});
