import { join, resolve } from 'node:path';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import { buildPlan } from '../../../src/experiment/plan.js';
import { formatPlan, usd } from '../../../src/ui/format-plan.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/experiments');
const colors = pc.createColors(false);

describe('formatPlan', () => {
  it('renders cases, checks, rubric, models, calls and cost', async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'basic'), { cwd: FIXTURES, env: {} });
    const text = formatPlan(buildPlan(experiment), colors, FIXTURES);
    expect(text).toContain('basic — Two-sentence science explanations');
    expect(text).toContain('Prompt      basic/prompt.md');
    expect(text).toContain('4 train, 1 holdout');
    expect(text).toContain('holdout: rainbows');
    expect(text).toContain('3 global, 1 per-case on 1 case, 1 gate');
    expect(text).toContain('- clarity  (weight 2)');
    expect(text).toMatch(/mutator +sim {2}\(defaulted from generator\) {2}\[simulated\]/);
    expect(text).toContain(
      'Acceptance  paired: keep when the mean gain per train case is above 0 at 90% confidence and at least min_effect 0.01; unclear: both sides get 1 more sample per case and it is decided again (each look at 95%)',
    );
    expect(text).toContain(
      'smallest detectable gain ≈ 0.18  (power 0.8; 4 train cases × 2 samples; per-case sd 0.11 from a default spread of 0.15; no run yet)',
    );
    expect(text).toContain(
      'warning: with 4 train cases this can only detect gains of about 0.18, above min_effect 0.01: add cases or samples',
    );
    // Pareto decides each candidate against its own parent: one retest per candidate at most
    // (test/integration/estimate-vs-run.test.ts holds the bound against real runs).
    expect(text).toContain(
      'per iteration: at most generator 40, mutator 2, judge 80, grader 6  (2 candidates × 5 cases × 2 samples, + 2 retests (one per candidate) of both sides × 1 sample)',
    );
    expect(text).toContain(
      'a merge of two front members tried 2 times (one candidate each, within the above)',
    );
    expect(text).toContain('baseline: 1 evaluation (generator 10, judge 20, grader 1)');
    expect(text).toContain(
      'drift anchors: 4 baseline outputs judged again after the baseline and every 5 iterations (judge 8 each)',
    );
    expect(text).toContain('~$0.00 per iteration');
    expect(text).toContain('Warnings    1');
  });

  it('prints the split sizes, the sealed test split included', async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'basic'), { cwd: FIXTURES, env: {} });
    const plain = formatPlan(buildPlan(experiment), colors, FIXTURES);
    expect(plain).toContain('4 train, 1 holdout, 0 test');
    expect(plain).not.toContain('test:');
    const sealed = {
      ...experiment,
      cases: experiment.cases.map((c, i) => (i === 0 ? { ...c, split: 'test' as const } : c)),
    };
    const first = experiment.cases[0]?.id;
    const text = formatPlan(buildPlan(sealed), colors, FIXTURES);
    expect(text).toContain('3 train, 1 holdout, 1 test');
    expect(text).toContain(`test:    ${first} (sealed: scored only by the final evaluation)`);
    expect(buildPlan(sealed).calls.perEvaluation.generator).toBe(
      (buildPlan(experiment).calls.perEvaluation.generator * 4) / 5,
    );
  });

  it('prices the models of an experiment with a judge program, whose own calls it says are not counted', async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'program-judge'), { cwd: '/', env: {} });
    const text = formatPlan(buildPlan(experiment), colors, '/');
    // The program's calls count toward neither the estimate nor budget.usd: they do not make it unknown.
    expect(text).not.toContain('unknown');
    expect(text).toMatch(/Cost +~\$0\.\d+ per iteration, ~\$0\.\d+ for 30 iterations/);
    expect(text).toContain(
      "Acceptance  margin (version 1): keep a train mean that beats the incumbent's by twice the baseline's noise over 3 evaluations",
    );
    expect(text).toContain('baseline: 3 evaluations');
    expect(text).toContain(
      'judge is an external program; its own model calls are not counted, here or in budget.usd',
    );
    expect(text).toContain('judge: external program, 1 run per evaluation');
  });

  it('names a model with no price once, with every role it plays and each key that would price it', async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'basic'), { cwd: '/', env: {} });
    const local = { provider: 'openai' as const, model: 'llama3.1', base_url: 'http://127.0.0.1:11434/v1' };
    const models = { ...experiment.models, generator: local, mutator: local, judge: local };
    const text = formatPlan(buildPlan({ ...experiment, models }), colors, '/');
    expect(text.match(/no price for openai\/llama3\.1/g)).toHaveLength(1);
    expect(text).toContain(
      'no price for openai/llama3.1 (generator, mutator, judge); set models.generator.price, models.mutator.price, models.judge.price',
    );
  });

  it('says when budget.usd would stop the run during its baseline', async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'program-judge'), { cwd: '/', env: {} });
    const { cost } = buildPlan(experiment);
    const baseline = cost.baselineUsd ?? Number.NaN;
    const at = (usd: number) => {
      const tight = {
        ...experiment,
        config: { ...experiment.config, budget: { ...experiment.config.budget, usd } },
      };
      return formatPlan(buildPlan(tight), colors, '/');
    };
    expect(at(baseline / 2)).toMatch(
      /budget\.usd stops the run at \$[\d.]+, during the baseline \(~\$[\d.]+\): no iteration runs/,
    );
    expect(at(baseline + 2.5 * (cost.perIterationUsd ?? Number.NaN))).toMatch(
      /budget\.usd stops the run at \$[\d.]+, about 2 iterations in/,
    );
  });

  it("takes the spread of per-case differences from the latest run's decisions when there is one", async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'basic'), { cwd: FIXTURES, env: {} });
    const measured = { runId: '20261201-0900-basic-ab12', decisions: 6, sdPerSample: 0.02 };
    const text = formatPlan(buildPlan(experiment, measured), colors, FIXTURES);
    expect(text).toMatch(
      /smallest detectable gain ≈ 0\.0\d+ {2}\(power 0\.8; 4 train cases × 2 samples; per-case sd 0\.014 measured over 6 decisions of run 20261201-0900-basic-ab12\)/,
    );
  });

  it('has no colour codes when colours are off', async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'basic'), { cwd: FIXTURES, env: {} });
    expect(formatPlan(buildPlan(experiment), colors, FIXTURES)).not.toMatch(/\u001b\[/);
  });
});

describe('usd', () => {
  it('shows small amounts with two significant digits', () => {
    expect(usd(0)).toBe('$0.00');
    expect(usd(0.00123)).toBe('$0.0012');
    expect(usd(1.234)).toBe('$1.23');
  });
});
