/**
 * The examples' starting prompts are bare on purpose, so an offline `--provider sim` run has
 * something to improve: under the simulated generator the baseline fails checks that a
 * prompt change can fix. Each case is sent as the experiment sends it (renderRequest: a path
 * prompt's one user message, or a prompt shape's system part, messages, schema and tools).
 * (Full sim runs of each example live with the loop's tests.)
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../../src/checks/run-checks.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import { renderRequest } from '../../../src/experiment/render-request.js';
import type { Case, Experiment } from '../../../src/experiment/types.js';
import { simulateCompletion } from '../../../src/providers/sim/simulate.js';

const ROOT = resolve(import.meta.dirname, '../../..');

/** One case's simulated answer to what the experiment sends with `prompt` as its optimised part. */
function simulate(experiment: Experiment, prompt: string, testCase: Case) {
  const request = renderRequest({
    shape: experiment.shape,
    prompt,
    testCase,
    ...(experiment.models.generator.system === undefined
      ? {}
      : { system: experiment.models.generator.system }),
  });
  return simulateCompletion({ ...request, temperature: 0.7 });
}

/** Per case: the names of the checks the simulated output fails. */
async function simulatedFailures(experiment: Experiment, prompt: string): Promise<string[][]> {
  const failures: string[][] = [];
  for (const c of experiment.cases) {
    const { text, toolCalls } = simulate(experiment, prompt, c);
    const outcomes = await runChecks({
      output: text,
      ...(toolCalls === undefined ? {} : { toolCalls }),
      vars: c.vars,
      checks: [...experiment.checks, ...c.checks],
      baseDir: experiment.dir,
      env: {},
    });
    failures.push(outcomes.filter((o) => !o.pass).map((o) => o.name));
  }
  return failures;
}

describe('ticket-triage under the simulated model', async () => {
  const { experiment } = await loadExperiment('ticket-triage', { cwd: ROOT, env: {} });

  it('fails the JSON gate with the bare prompt, which never asks for JSON', async () => {
    const failures = await simulatedFailures(experiment, experiment.prompt);
    expect(failures.filter((names) => names.includes('triage-schema')).length).toBe(experiment.cases.length);
  });

  it('passes the gate on most cases once the prompt asks for bare JSON', async () => {
    const failures = await simulatedFailures(
      experiment,
      `${experiment.prompt}Reply with only a JSON object and no other text.\n`,
    );
    const failing = failures.filter((names) => names.includes('triage-schema')).length;
    expect(failing).toBeLessThan(experiment.cases.length / 2);
  });
});

describe('linkedin-post under the simulated model', async () => {
  const { experiment } = await loadExperiment('linkedin-post', { cwd: ROOT, env: {} });

  it('fails length or cliché checks on a good share of cases with the bare prompt', async () => {
    const failures = await simulatedFailures(experiment, experiment.prompt);
    expect(failures.filter((names) => names.length > 0).length).toBeGreaterThanOrEqual(
      experiment.cases.length / 4,
    );
    expect(failures.flat().some((name) => name.startsWith('word-count'))).toBe(true);
  });

  it('never trips the hashtag gate by itself, so the gate stays a guard rather than the goal', async () => {
    const failures = await simulatedFailures(experiment, experiment.prompt);
    expect(failures.flat()).not.toContain('at-most-3-hashtags');
  });
});

describe('support-bot under the simulated model', async () => {
  const { experiment } = await loadExperiment('support-bot', { cwd: ROOT, env: {} });
  const failing = (failures: string[][], prefix: string) =>
    failures.filter((names) => names.some((name) => name.startsWith(prefix))).length;

  it('fails the length and greeting checks on most conversations with the bare system prompt', async () => {
    const failures = await simulatedFailures(experiment, experiment.prompt);
    expect(failing(failures, 'word-count')).toBeGreaterThan(experiment.cases.length / 2);
    expect(failing(failures, 'starts-with')).toBeGreaterThan(experiment.cases.length / 2);
  });

  it('passes them on most conversations once the system prompt asks for a short reply that starts with Hi', async () => {
    const failures = await simulatedFailures(
      experiment,
      `${experiment.prompt}Start with 'Hi'.\nKeep the whole reply under 100 words.\n`,
    );
    expect(failing(failures, 'word-count')).toBeLessThan(experiment.cases.length / 2);
    expect(failing(failures, 'starts-with')).toBeLessThan(experiment.cases.length / 2);
  });

  it('never trips the refund gate by itself, so the gate stays a guard rather than the goal', async () => {
    const failures = await simulatedFailures(experiment, experiment.prompt);
    expect(failures.flat()).not.toContain('no-refund-promises');
  });
});

describe('invoice-extract under the simulated model', async () => {
  const { experiment } = await loadExperiment('invoice-extract', { cwd: ROOT, env: {} });
  const required = (experiment.shape.output?.schema['required'] ?? []) as string[];

  it('calls lookup_vendor where no lookup was made, and answers the schema after the register replied', () => {
    for (const c of experiment.cases) {
      const { text, toolCalls } = simulate(experiment, experiment.prompt, c);
      if (c.messages === undefined) {
        expect(
          toolCalls?.map((call) => call.name),
          c.id,
        ).toEqual(['lookup_vendor']);
      } else {
        expect(toolCalls ?? [], c.id).toEqual([]);
        expect(Object.keys(JSON.parse(text)).sort(), c.id).toEqual([...required].sort());
      }
    }
  });

  const answered = (failures: string[][]) => failures.filter((_, i) => experiment.cases[i]?.messages);
  const failing = (failures: string[][], name: string) =>
    failures.filter((names) => names.includes(name)).length;

  it('copies dates and currency signs as printed with the bare system prompt', async () => {
    const failures = answered(await simulatedFailures(experiment, experiment.prompt));
    expect(failing(failures, 'iso-date')).toBeGreaterThan(failures.length / 2);
    expect(failing(failures, 'iso-currency-code')).toBeGreaterThan(failures.length / 2);
    expect(failing(failures, 'fields')).toBe(failures.length);
  });

  it('gets the fields right on most cases once the system prompt states the value rules', async () => {
    const rules = [
      'Write every date as YYYY-MM-DD.',
      'Write currencies as ISO 4217 codes (GBP, USD, EUR), not symbols.',
      'Write amounts as plain numbers: no thousands separators, a point for decimals.',
      'List every line item, discounts and credits included, negative amounts kept negative.',
      'Take ids from the tool results: null when the tool finds nothing, and of several matches the one the document confirms.',
    ];
    const failures = answered(
      await simulatedFailures(experiment, `${experiment.prompt}${rules.join('\n')}\n`),
    );
    expect(failing(failures, 'iso-date')).toBeLessThan(failures.length / 4);
    expect(failing(failures, 'iso-currency-code')).toBeLessThan(failures.length / 4);
    expect(failing(failures, 'fields')).toBeLessThan(failures.length / 4);
  });
});
