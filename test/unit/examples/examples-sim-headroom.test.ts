/**
 * The examples' starting prompts are bare on purpose, so an offline `--provider sim` run has
 * something to improve: under the simulated generator the baseline fails checks that a
 * prompt change can fix. (Full sim runs of each example live with the loop's tests.)
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../../src/checks/run-checks.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import { renderTemplate } from '../../../src/experiment/template.js';
import type { Experiment } from '../../../src/experiment/types.js';
import { simulateCompletion } from '../../../src/providers/sim/simulate.js';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Per case: the names of the checks the simulated output fails. */
async function simulatedFailures(experiment: Experiment, prompt: string): Promise<string[][]> {
  const failures: string[][] = [];
  for (const c of experiment.cases) {
    const rendered = renderTemplate(prompt, c.vars);
    const output = simulateCompletion({
      messages: [{ role: 'user', content: rendered }],
      temperature: 0.7,
    }).text;
    const outcomes = await runChecks({
      output,
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
