import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countCalls } from '../../../src/experiment/count-calls.js';
import { unpricedWarning } from '../../../src/experiment/estimate-cost.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import { buildPlan } from '../../../src/experiment/plan.js';
import { DEFAULT_DIFFERENCE_SD, describeAcceptance } from '../../../src/experiment/plan-acceptance.js';
import { Search } from '../../../src/experiment/schema.js';
import { detectableEffect } from '../../../src/loop/paired.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/experiments');
const root = mkdtempSync(join(tmpdir(), 'ar-plan-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function loadWith(experimentYaml: string, cases: string, prompt = 'Write {{x}}.', rubric?: string) {
  const dir = mkdtempSync(join(root, 'exp-'));
  writeFileSync(join(dir, 'experiment.yaml'), experimentYaml);
  if (rubric !== undefined) writeFileSync(join(dir, 'rubric.md'), rubric);
  writeFileSync(join(dir, 'cases.yaml'), cases);
  writeFileSync(join(dir, 'prompt.md'), prompt);
  return (await loadExperiment(dir, { cwd: dir, env: {} })).experiment;
}

const SIM =
  'name: c\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: sim }\nchecks: [{ type: contains, value: a }]\n';
const casesOf = (n: number, graded: number[] = []) =>
  Array.from(
    { length: n },
    (_, i) => `- id: c${i}\n  vars: { x: a }\n${graded.includes(i) ? '  expectations: [Says a]\n' : ''}`,
  ).join('');

describe('countCalls', () => {
  it('under paired (the default, with the pareto search): the baseline once, each proposal on every case at most, plus a retest of both sides per candidate', async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'basic'), { cwd: FIXTURES, env: {} });
    // 5 cases × 2 samples; 2 candidates; judge samples 2; one case with expectations.
    // 4 train cases: the default minibatch min(8, 4) is all of them, so no screening.
    // A retest: both sides × 5 cases × 1 sample = generator 10, judge 20, grader 2; pareto decides
    // each of the 2 candidates against its own parent, so each may be retested.
    expect(countCalls(experiment)).toEqual({
      acceptance: 'paired',
      strategy: 'pareto',
      perEvaluation: { generator: 10, mutator: 0, judge: 20, grader: 1 },
      evaluationsPerIteration: 2,
      perIteration: { generator: 40, mutator: 2, judge: 80, grader: 6 },
      screening: null,
      retest: { samples: 1, retests: 2, calls: { generator: 20, mutator: 0, judge: 40, grader: 4 } },
      baselineEvaluations: 1,
      finalEvaluations: 2,
      perFinalEvaluation: { generator: 10, mutator: 0, judge: 20, grader: 1 },
      programRuns: {},
      // Drift anchors at their defaults (docs/design/judge-reliability.md): 4 outputs × judge
      // samples 2 per reading.
      anchors: { outputs: 4, every: 5, perReading: { generator: 0, mutator: 0, judge: 8, grader: 0 } },
      // 10 iterations: merges due (merge_every 5) and drift checks (anchor_every 5) at 5 and 10.
      schedule: { iterations: 10, mergesDue: 2, driftChecks: 2 },
    });
  });

  it('counts drift-anchor readings as set, none when off or without a judge, and never more outputs than train has', async () => {
    const RUBRIC = `${SIM}rubric: rubric.md\n`;
    const rubric = '# Rubric\n\n## Criteria\n\n### Clarity\n\nIs it clear?\n';
    const set = await loadWith(
      `${RUBRIC}judging: { anchors: 6, anchor_every: 2 }\n`,
      casesOf(4),
      undefined,
      rubric,
    );
    // 4 cases, holdout 0.25: 3 train outputs at most; the judge defaults to the generator's entry.
    expect(countCalls(set).anchors).toEqual({
      outputs: 3,
      every: 2,
      perReading: { generator: 0, mutator: 0, judge: 3, grader: 0 },
    });
    const off = await loadWith(`${RUBRIC}judging: { anchors: 0 }\n`, casesOf(4), undefined, rubric);
    expect(countCalls(off).anchors).toBeNull();
    expect(countCalls(await loadWith(SIM, casesOf(4))).anchors).toBeNull();
  });

  it('under paired with screening: the least is every proposal stopped after its minibatch', async () => {
    // 12 cases, holdout 0.25: 9 train, 3 holdout; minibatch 4; cases 0 and 1 graded.
    const experiment = await loadWith(
      `${SIM}search: { candidates: 2, minibatch: 4, retest: 2 }\n`,
      casesOf(12, [0, 1]),
    );
    const calls = countCalls(experiment);
    expect(calls.screening).toEqual({
      minibatch: 4,
      train: 9,
      // The fewest graded cases a minibatch can hold: none.
      screenedOut: { generator: 8, mutator: 2, judge: 0, grader: 0 },
    });
    // The pareto search (the default under paired): each candidate may be retested against its parent.
    expect(calls.retest).toEqual({
      samples: 2,
      retests: 2,
      calls: { generator: 96, mutator: 0, judge: 0, grader: 8 },
    });
    expect(calls.perIteration).toEqual({ generator: 24 + 96, mutator: 2, judge: 0, grader: 4 + 8 });
    // The greedy search retests only its leading proposal.
    const greedy = countCalls(
      await loadWith(
        `${SIM}search: { strategy: greedy, candidates: 2, minibatch: 4, retest: 2 }\n`,
        casesOf(12, [0, 1]),
      ),
    );
    expect(greedy.screening).toEqual(calls.screening);
    expect(greedy.retest).toEqual({
      samples: 2,
      retests: 1,
      calls: { generator: 48, mutator: 0, judge: 0, grader: 4 },
    });
    expect(greedy.perIteration).toEqual({ generator: 24 + 48, mutator: 2, judge: 0, grader: 4 + 4 });
  });

  it('under margin: the baseline noise_repeats times, and one more evaluation when confirm re-checks a would-be keep', async () => {
    const experiment = await loadWith(
      `${SIM}search: { acceptance: margin, confirm: true, candidates: 3 }\n`,
      '- vars: { x: a }\n',
    );
    const calls = countCalls(experiment);
    expect(calls.acceptance).toBe('margin');
    expect(calls.evaluationsPerIteration).toBe(4);
    expect(calls.perIteration).toEqual({ generator: 4, mutator: 3, judge: 0, grader: 0 });
    expect(calls.baselineEvaluations).toBe(3);
    expect([calls.screening, calls.retest]).toEqual([null, null]);
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
      'name: c\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: anthropic, model: claude-haiku-4-5, max_tokens: 100 }\nchecks: [{ type: contains, value: a }]\nbudget: { iterations: 10 }\nsearch: { acceptance: margin }\n',
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

  it('gives an agent experiment no generator figure: its cases are conversations of unknown size', async () => {
    const experiment = await loadWith(
      'name: c\nprompt: prompt.md\ncases: cases.yaml\nagent: { max_turns: 7 }\nmodels:\n  generator: { provider: claude-cli, model: sonnet }\n  mutator: { provider: anthropic, model: claude-haiku-4-5 }\nchecks: [{ type: contains, value: a }]\nsearch: { acceptance: margin }\n',
      '- vars: { task: a }\n- vars: { task: b }\n',
      'Do the task well.',
    );
    const plan = buildPlan(experiment);
    const generator = plan.cost.roles.find((r) => r.role === 'generator');
    expect(generator?.perIterationUsd).toBeNull();
    expect(generator?.unknownBecause).toMatch(/agent case makes up to 7 model calls/);
    expect(plan.cost.totalUsd).toBeNull();
    // The mutator's price is known and still counted.
    expect(plan.cost.knownPerIterationUsd).toBeGreaterThan(0);
    expect(plan.experiment.agentMaxTurns).toBe(7);
  });

  it('estimates the night four ways: interactive, prompt caching, batch, both (docs/design/cost-engine.md)', async () => {
    // A prompt whose text before its variable is 4,401 characters: a 1,101-token stable prefix,
    // above claude-sonnet-4-5's 1,024-token cache minimum.
    const prompt = `${'P'.repeat(4400)} {{x}}.`;
    const experiment = await loadWith(
      'name: c\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: anthropic, model: claude-sonnet-4-5, max_tokens: 100 }\nchecks: [{ type: contains, value: a }]\nbudget: { iterations: 10 }\nsearch: { acceptance: margin }\n',
      '- vars: { x: abcd }\n- vars: { x: efgh }\n',
      prompt,
    );
    const { cost } = buildPlan(experiment);
    const night = cost.night;
    if (night === null) throw new Error('no night estimate');
    // claude-sonnet-4-5 per Mtok: $3 in, $3.75 cache write, $0.30 cache read, $15 out. A call:
    // 1,102 tokens in ("P…P abcd." is 4,406 characters), 100 out.
    const plain = (1102 * 3 + 100 * 15) / 1e6;
    // Each evaluation's 2 calls: the prefix written once, read once; the one other token plain.
    const cached = (1 * 3 + 550.5 * 3.75 + 550.5 * 0.3 + 100 * 15) / 1e6;
    // Generator calls: baseline 3 × 2, final check 2 × 2, 10 iterations × 2 = 30; the mutator's
    // 10 are never batched nor cached.
    const generatorCalls = 30;
    const mutator = night.interactive - generatorCalls * plain;
    expect(night.interactive).toBeCloseTo(cost.totalUsd ?? Number.NaN, 12);
    expect(mutator).toBeGreaterThan(0);
    expect(night.caching).toBeCloseTo(mutator + generatorCalls * cached, 12);
    expect(night.batch).toBeCloseTo(mutator + generatorCalls * plain * 0.5, 12);
    expect(night.batchAndCaching).toBeCloseTo(mutator + generatorCalls * cached * 0.5, 12);
  });

  it('caches nothing below the model’s minimum prefix, while batching still halves the generator’s calls', async () => {
    const experiment = await loadWith(
      'name: c\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: anthropic, model: claude-haiku-4-5, max_tokens: 100 }\nchecks: [{ type: contains, value: a }]\nsearch: { acceptance: margin }\n',
      '- vars: { x: abcd }\n- vars: { x: efgh }\n',
      `${'P'.repeat(8000)} {{x}}.`,
    );
    const night = buildPlan(experiment).cost.night;
    // claude-haiku-4-5 caches from 4,096 tokens: a 2,001-token prefix is not cached.
    expect(night?.caching).toBeCloseTo(night?.interactive ?? Number.NaN, 12);
    expect(night?.batch).toBeLessThan(night?.interactive ?? 0);
  });

  it('under paired: one baseline evaluation, and each iteration at its most (a retest of both sides)', async () => {
    const experiment = await loadWith(
      'name: c\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: anthropic, model: claude-haiku-4-5, max_tokens: 100 }\nchecks: [{ type: contains, value: a }]\nbudget: { iterations: 10 }\n',
      '- vars: { x: abcd }\n- vars: { x: efgh }\n- vars: { x: ijkl }\n',
    );
    const { cost, calls } = buildPlan(experiment);
    expect(calls.perIteration).toEqual({ generator: 3 + 2 * 3, mutator: 1, judge: 0, grader: 0 });
    const generatorCall = (3 * 1 + 100 * 5) / 1e6;
    // Mutator: 1500 overhead + 3 prompt tokens + 2 train cases × 250; output capped at 100.
    const mutatorCall = (2003 * 1 + 100 * 5) / 1e6;
    expect(cost.perIterationUsd).toBeCloseTo(9 * generatorCall + mutatorCall, 12);
    expect(cost.baselineUsd).toBeCloseTo(3 * generatorCall, 12);
    expect(cost.finalUsd).toBeCloseTo(2 * 3 * generatorCall, 12);
  });

  it('adds the drift-anchor readings: one with the baseline, one every anchor_every iterations', async () => {
    const yaml = (judging: string) =>
      `name: c\nprompt: prompt.md\ncases: cases.yaml\nrubric: rubric.md\nmodels:\n  generator: { provider: anthropic, model: claude-haiku-4-5, max_tokens: 100 }\nbudget: { iterations: 12 }\njudging: ${judging}\n`;
    const rubric = '# Rubric\n\n## Criteria\n\n### Clarity\n\nIs it clear?\n';
    const cases = casesOf(4);
    const on = buildPlan(await loadWith(yaml('{ anchors: 2, anchor_every: 5 }'), cases, undefined, rubric));
    const off = buildPlan(await loadWith(yaml('{ anchors: 0 }'), cases, undefined, rubric));
    const judge = on.cost.roles.find((r) => r.role === 'judge');
    const judgeCall = (judge?.perIterationUsd ?? Number.NaN) / on.calls.perIteration.judge;
    // 2 anchors per reading; readings after the baseline and at iterations 5 and 10.
    expect(on.cost.baselineUsd).toBeCloseTo((off.cost.baselineUsd ?? Number.NaN) + 2 * judgeCall, 12);
    expect(on.cost.totalUsd).toBeCloseTo((off.cost.totalUsd ?? Number.NaN) + 3 * 2 * judgeCall, 12);
    expect(on.cost.perIterationUsd).toBe(off.cost.perIterationUsd);
  });

  it('says the cost is unknown when a role has no price, and which role', async () => {
    const experiment = await loadWith(
      'name: c\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: sim }\n  mutator: { provider: openai, model: my-local-model, base_url: "http://127.0.0.1:9/v1" }\nchecks: [{ type: contains, value: a }]\nsearch: { acceptance: margin }\n',
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

describe('describeAcceptance', () => {
  const paired = Search.parse({});

  it('gives the smallest gain detected with power 0.8 at each look’s confidence, from the default spread', () => {
    const a = describeAcceptance(paired, 12, null);
    if (a.rule !== 'paired') throw new Error('expected paired');
    expect(a.lookConfidence).toBeCloseTo(0.95, 12);
    const expected = detectableEffect(12, DEFAULT_DIFFERENCE_SD, 0.95, 0.8) as number;
    expect(expected).toBeCloseTo(0.116, 3);
    expect(a.detectable).toEqual({
      effect: expected,
      cases: 12,
      samples: 1,
      sd: DEFAULT_DIFFERENCE_SD,
      groups: null,
      from: { default: DEFAULT_DIFFERENCE_SD },
      warning:
        'with 12 train cases this can only detect gains of about 0.12, above min_effect 0.01: add cases or samples',
    });
    expect(a.minibatch).toBe(8);
  });

  it('scales a measured spread to the samples planned and says nothing when min_effect is within reach', () => {
    const search = Search.parse({ samples: 4, min_effect: 0.05, retest: 0 });
    const a = describeAcceptance(search, 30, { runId: 'r1', decisions: 5, sdPerSample: 0.1 });
    if (a.rule !== 'paired') throw new Error('expected paired');
    expect(a.detectable.sd).toBeCloseTo(0.05, 12);
    expect(a.detectable.effect).toBeCloseTo(detectableEffect(30, 0.05, 0.9, 0.8) as number, 12);
    expect(a.detectable.from).toEqual({ run: 'r1', decisions: 5 });
    expect(a.detectable.warning).toBeNull();
  });

  it('has no detectable effect below 2 train cases, no screening when the minibatch covers them, and margin settings under margin', () => {
    const one = describeAcceptance(paired, 1, null);
    expect(one.rule === 'paired' && [one.detectable.effect, one.minibatch]).toEqual([null, null]);
    expect(describeAcceptance(Search.parse({ min_improvement: 0.02 }), 12, null)).toEqual({
      rule: 'margin',
      minImprovement: 0.02,
      noiseRepeats: 3,
      confirm: false,
    });
  });
});

describe('the run’s warning about calls it cannot price', () => {
  const withModels = (models: string) =>
    loadWith(
      `name: c\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n${models}checks: [{ type: contains, value: a }]\n`,
      casesOf(3),
    );

  it('names every unpriced model once, with the roles that use it and where to set a price', async () => {
    const experiment = await withModels(
      '  generator: { provider: openai, model: my-gateway-model, base_url: "http://127.0.0.1:9/v1" }\n',
    );
    expect(unpricedWarning(experiment)).toBe(
      'no price for openai/my-gateway-model (generator, mutator): its calls are recorded as unpriced and do not count toward budget.usd; set models.generator.price to count them',
    );
  });

  it('says nothing when every model has a price, is simulated, or is a program', async () => {
    expect(unpricedWarning(await withModels('  generator: { provider: sim }\n'))).toBeUndefined();
    expect(
      unpricedWarning(
        await withModels(
          '  generator: { provider: anthropic, model: claude-sonnet-5-5 }\n  judge: { command: [node, judge.mjs] }\n',
        ),
      ),
    ).toBeUndefined();
    expect(
      unpricedWarning(
        await withModels(
          '  generator: { provider: openai, model: my-model, base_url: "http://127.0.0.1:9/v1", price: { input_per_mtok: 1, output_per_mtok: 2 } }\n',
        ),
      ),
    ).toBeUndefined();
  });
});
