import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Experiment } from '../../../src/experiment/types.js';
import { fingerprintExperiment } from '../../../src/run/fingerprint.js';
import { compareManifest, readManifest, writeManifest, type Manifest } from '../../../src/run/manifest.js';
import { RECORD_VERSION } from '../../../src/run/record-version.js';
import { VERSION } from '../../../src/version.js';

function experiment(): Experiment {
  return {
    name: 'cold-email',
    description: '',
    file: '/p/experiments/cold-email/experiment.yaml',
    dir: '/p/experiments/cold-email',
    config: {} as Experiment['config'],
    promptPath: '/p/experiments/cold-email/prompt.md',
    prompt: 'Write to {{audience}} about {{topic}}.',
    shape: { parts: [] },
    casesPath: '/p/experiments/cold-email/cases.yaml',
    cases: [
      {
        id: 'a',
        vars: { topic: 'billing', audience: 'CTO' },
        checks: [],
        expectations: [],
        split: 'train',
        source: { file: 'x' },
      },
      {
        id: 'b',
        vars: { topic: 'hiring', audience: 'CEO' },
        checks: [],
        expectations: ['names a pain'],
        split: 'holdout',
        source: { file: 'x' },
      },
      {
        id: 'c',
        vars: { topic: 'churn', audience: 'VP' },
        checks: [],
        expectations: [],
        split: 'train',
        source: { file: 'x' },
      },
    ],
    rubric: {
      path: '/p/rubrics/cold-email.md',
      text: '## Criteria\n### Clarity\n### Tone\n',
      criteria: [
        { key: 'clarity', title: 'Clarity', weight: 1 },
        { key: 'tone', title: 'Tone', weight: 1 },
      ],
    },
    models: {
      generator: { provider: 'anthropic', model: 'claude-sonnet-4-5', temperature: 0.7 },
      mutator: { provider: 'anthropic', model: 'claude-opus-4-1' },
      judge: { provider: 'anthropic', model: 'claude-sonnet-4-5', temperature: 0 },
    },
    checks: [
      { type: 'word-count', max: 150 },
      { type: 'starts-with', value: 'Subject:', gate: true },
    ],
    warnings: [],
  };
}

describe('fingerprint and compareManifest', () => {
  it('finds no difference in an unchanged experiment, whatever the key order', () => {
    const a = fingerprintExperiment(experiment());
    const changedOrder = experiment();
    changedOrder.models.generator = { temperature: 0.7, model: 'claude-sonnet-4-5', provider: 'anthropic' };
    expect(compareManifest(a, fingerprintExperiment(changedOrder))).toEqual([]);
  });

  it('names the cases that were added, removed and changed', () => {
    const now = experiment();
    now.cases[0]!.vars['topic'] = 'usage billing';
    now.cases.splice(2, 1);
    now.cases.push({
      id: 'd',
      vars: {},
      checks: [],
      expectations: [],
      split: 'train',
      source: { file: 'x' },
    });
    expect(compareManifest(fingerprintExperiment(experiment()), fingerprintExperiment(now))).toEqual([
      { what: 'cases', blocking: true, message: 'cases changed: added d; removed c; changed a' },
    ]);
  });

  it('describes rubric changes by criteria', () => {
    const now = experiment();
    now.rubric = {
      ...now.rubric!,
      text: 'other',
      criteria: [
        { key: 'clarity', title: 'Clarity', weight: 1 },
        { key: 'brevity', title: 'Brevity', weight: 1 },
      ],
    };
    expect(compareManifest(fingerprintExperiment(experiment()), fingerprintExperiment(now))).toEqual([
      {
        what: 'rubric',
        blocking: true,
        message: 'the rubric changed (criteria added: brevity; criteria removed: tone)',
      },
    ]);
    const reworded = experiment();
    reworded.rubric = { ...reworded.rubric!, text: 'reworded' };
    expect(
      compareManifest(fingerprintExperiment(experiment()), fingerprintExperiment(reworded))[0]?.message,
    ).toBe('the rubric text changed');
    const removed = experiment();
    delete removed.rubric;
    expect(
      compareManifest(fingerprintExperiment(experiment()), fingerprintExperiment(removed))[0]?.message,
    ).toMatch(/rubric was removed/);
  });

  it('describes check and model changes and treats the prompt file as informational', () => {
    const now = experiment();
    now.checks[0] = { type: 'word-count', max: 120 };
    now.checks.push({ type: 'icontains', value: 'meeting', name: 'asks-for-meeting' });
    now.models.generator = { provider: 'openai', model: 'gpt-5', temperature: 0.7 };
    now.prompt = 'Write better.';
    expect(compareManifest(fingerprintExperiment(experiment()), fingerprintExperiment(now))).toEqual([
      {
        what: 'prompt',
        blocking: false,
        message: 'the prompt file changed in the working tree since the run started',
      },
      {
        what: 'checks',
        blocking: true,
        message: 'global checks changed: #1 word-count changed, #3 added (asks-for-meeting)',
      },
      {
        what: 'models',
        blocking: true,
        message:
          'models changed: models.generator.model: "claude-sonnet-4-5" -> "gpt-5", models.generator.provider: "anthropic" -> "openai"',
      },
    ]);
  });
});

describe('fingerprint of prompt parts (docs/design/prompt-shapes.md)', () => {
  function withParts(): Experiment {
    const e = experiment();
    e.shape = {
      parts: [
        { name: 'system', role: 'system', text: e.prompt, path: '/p/s.md', optimise: true },
        { name: 'messages[0]', role: 'user', text: 'Topic: {{topic}}', optimise: false },
      ],
      output: { name: 'o', schema: { type: 'object' }, path: '/p/o.json' },
      tools: { path: '/p/t.json', definitions: [{ name: 'look', parameters: { type: 'object' } }] },
    };
    return e;
  }

  it('leaves a path prompt fingerprint as it was: no `shape` field', () => {
    const e = experiment();
    e.shape = {
      parts: [{ name: 'prompt', role: 'user', text: e.prompt, path: e.promptPath, optimise: true }],
    };
    expect(fingerprintExperiment(e)).not.toHaveProperty('shape');
    expect(fingerprintExperiment(e).caseHashes).toEqual(fingerprintExperiment(experiment()).caseHashes);
  });

  it('changes when the judge is given the inputs (judging.inputs): it then measures something else', () => {
    const e = experiment();
    e.config = { ...e.config, judging: { inputs: true } } as Experiment['config'];
    const before = fingerprintExperiment(experiment());
    const after = fingerprintExperiment(e);
    expect(after.shape).toHaveProperty(['judging.inputs']);
    expect(compareManifest(before, after).map((d) => d.what)).toContain('shape');
  });

  it('blocks a resume when a fixed part, the schema or the tools changed; the optimised part only informs', () => {
    const before = fingerprintExperiment(withParts());
    const fixed = withParts();
    (fixed.shape.parts[1] as { text: string }).text = 'Subject: {{topic}}';
    const schema = withParts();
    if (schema.shape.output) schema.shape.output.schema = { type: 'object', required: ['x'] };
    const tools = withParts();
    if (tools.shape.tools) tools.shape.tools.definitions = [];
    const optimised = withParts();
    optimised.prompt = 'Something else';
    for (const [changed, name] of [
      [fixed, 'messages[0]'],
      [schema, 'output'],
      [tools, 'tools'],
    ] as const) {
      expect(compareManifest(before, fingerprintExperiment(changed))).toEqual([
        {
          what: 'shape',
          blocking: true,
          message: `the prompt's fixed parts, output schema, tools or judge inputs changed: ${name}`,
        },
      ]);
    }
    expect(
      compareManifest(before, fingerprintExperiment(optimised)).map((d) => [d.what, d.blocking]),
    ).toEqual([['prompt', false]]);
  });

  it("covers a case's conversation", () => {
    const e = withParts();
    const before = fingerprintExperiment(e);
    (e.cases[0] as { messages?: unknown }).messages = [{ role: 'user', content: 'hi' }];
    expect(compareManifest(before, fingerprintExperiment(e))).toEqual([
      { what: 'cases', blocking: true, message: 'cases changed: changed a' },
    ]);
  });
});

describe('manifest file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ar-manifest-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function manifest(): Manifest {
    return {
      version: 1,
      kind: 'run',
      runId: '20261129-2230-cold-email-k3f9',
      createdAt: '2026-11-29T22:30:00.000Z',
      toolVersion: VERSION,
      projectRoot: '/p',
      experiment: {
        name: 'cold-email',
        file: 'experiments/cold-email/experiment.yaml',
        prompt: 'experiments/cold-email/prompt.md',
        cases: 'experiments/cold-email/cases.yaml',
        rubric: 'rubrics/cold-email.md',
      },
      config: { name: 'cold-email', concurrency: 8 },
      overrides: { iterations: 5 },
      ...fingerprintExperiment(experiment()),
      git: { base: 'a'.repeat(40), branch: 'autoresearch/cold-email/20261129-2230-cold-email-k3f9' },
    };
  }

  it('round-trips and compares clean against the experiment it came from', async () => {
    await writeManifest(dir, manifest());
    const read = await readManifest(dir);
    expect(read).toEqual(manifest());
    expect(compareManifest(read, fingerprintExperiment(experiment()))).toEqual([]);
    expect(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')).hashes.prompt).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });

  it('reports a missing or damaged manifest as a typed error', async () => {
    await expect(readManifest(dir)).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
    await writeFile(join(dir, 'manifest.json'), '{"version":1');
    await expect(readManifest(dir)).rejects.toMatchObject({ code: 'E_RUN_RECORD' });
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest(), kind: 'other' }));
    await expect(readManifest(dir)).rejects.toMatchObject({ code: 'E_RUN_RECORD', message: /kind/ });
  });

  it('refuses a manifest from a newer record version, whatever else it holds, with exit code 2', async () => {
    const newer = { ...manifest(), version: RECORD_VERSION + 1, fieldOfTheFuture: true };
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(newer));
    await expect(readManifest(dir)).rejects.toMatchObject({
      code: 'E_RUN_VERSION',
      exitCode: 2,
      message: new RegExp(`newer autoresearch \\(record version ${RECORD_VERSION + 1};`),
      hint: expect.stringContaining('upgrade'),
    });
  });
});
