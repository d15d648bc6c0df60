/**
 * The implicit gate of structured output (docs/design/prompt-shapes.md): with `output.json_schema`
 * every case's checks start with an `is-json` gate against it, outputs with tool calls pass it,
 * `validate` lists it; without a schema nothing is added.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { globalChecks } from '../../../src/checks/output-schema-gate.js';
import { runChecks } from '../../../src/checks/run-checks.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import { buildPlan } from '../../../src/experiment/plan.js';
import type { Experiment } from '../../../src/experiment/types.js';

const SCHEMA = {
  type: 'object',
  required: ['label'],
  properties: { label: { enum: ['spam', 'ham'] } },
  additionalProperties: false,
};
const root = mkdtempSync(join(tmpdir(), 'ar-output-schema-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function load(): Promise<Experiment> {
  writeFileSync(
    join(root, 'experiment.yaml'),
    'name: s\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: sim }\nchecks: [{ type: contains, value: a, gate: true }]\nsearch: { acceptance: margin }\n',
  );
  writeFileSync(join(root, 'cases.yaml'), '- vars: { x: a }\n');
  writeFileSync(join(root, 'prompt.md'), 'Label {{x}}.');
  const { experiment } = await loadExperiment(root, { cwd: root, env: {} });
  if (experiment === undefined) throw new Error('the experiment did not load');
  return experiment;
}

function withSchema(experiment: Experiment): Experiment {
  // The format's `output.json_schema` as the loader gives it (src/experiment/types.ts PromptShape).
  return {
    ...experiment,
    shape: { ...experiment.shape, output: { name: 'label', schema: SCHEMA, path: join(root, 'label.json') } },
  };
}

async function gate(experiment: Experiment, output: string, toolCalls = false) {
  const [outcome] = await runChecks({
    output,
    ...(toolCalls ? { toolCalls: [{ id: 'c1', name: 'escalate', arguments: {} }] } : {}),
    vars: {},
    checks: globalChecks(experiment),
    baseDir: root,
  });
  return outcome;
}

describe('the output-schema gate', () => {
  it('adds nothing without output.json_schema', async () => {
    const experiment = await load();
    expect(globalChecks(experiment)).toBe(experiment.checks);
    expect(buildPlan(experiment).checks).toMatchObject({ global: ['contains: a'], gates: 1 });
  });

  it('heads the global checks: an is-json gate of weight 0 against the schema, the same entry each time', async () => {
    const experiment = withSchema(await load());
    const [first, ...rest] = globalChecks(experiment);
    expect(first).toEqual({ type: 'is-json', value: SCHEMA, gate: true, weight: 0, name: 'output-schema' });
    expect(rest).toEqual(experiment.checks);
    expect(globalChecks(experiment)[0]).toBe(first);
    expect(buildPlan(experiment).checks).toMatchObject({
      global: ['output-schema', 'contains: a'],
      gates: 2,
    });
  });

  it('passes JSON valid against the schema and fails anything else', async () => {
    const experiment = withSchema(await load());
    expect(await gate(experiment, ' {"label": "spam"}\n')).toMatchObject({
      name: 'output-schema',
      type: 'is-json',
      gate: true,
      weight: 0,
      pass: true,
    });
    const invalid = await gate(experiment, '{"label": "eggs"}');
    expect(invalid).toMatchObject({ pass: false, score: 0 });
    expect(invalid?.reason).toMatch(/does not match the schema: .*allowed values/);
    expect(await gate(experiment, 'Label: spam')).toMatchObject({
      pass: false,
      reason: expect.stringMatching(/not valid JSON/),
    });
  });

  it('lets an output with tool calls pass, whatever its text', async () => {
    const experiment = withSchema(await load());
    expect(await gate(experiment, 'Escalating this one.', true)).toMatchObject({
      pass: true,
      score: 1,
      reason: 'the output called tools: the output schema applies only to outputs without tool calls',
    });
  });

  it('exempts only the implicit gate: an is-json check the user wrote still judges the text', async () => {
    const experiment = await load();
    const [outcome] = await runChecks({
      output: 'Escalating this one.',
      toolCalls: [{ id: 'c1', name: 'escalate', arguments: {} }],
      vars: {},
      checks: [{ type: 'is-json', value: SCHEMA, gate: true, weight: 0, name: 'output-schema' }],
      baseDir: experiment.dir,
    });
    expect(outcome?.pass).toBe(false);
  });
});
