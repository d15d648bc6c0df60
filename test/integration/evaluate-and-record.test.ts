/**
 * An evaluation writes each output's file and runs its checks as soon as that output is in,
 * while the other model calls still wait: one case's generation here is held until another
 * case's output file exists and its check (a `file://` javascript check in its own process,
 * which leaves a marker) has run. Writing or checking only after the last call would never
 * release it.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { evaluateAndRecord } from '../../src/evaluate/evaluate-and-record.js';
import type { CandidateOutcome } from '../../src/evaluate/evaluate-types.js';
import { loadExperiment } from '../../src/experiment/load-experiment.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import { ProviderError } from '../../src/providers/types.js';
import { type CandidatePaths, candidatePaths } from '../../src/run/paths.js';
import { createScriptedProviders, lastUserMessage } from '../helpers/scripted-provider.js';
import { useTempDir } from '../helpers/temp-dir.js';

const env: NodeJS.ProcessEnv = { ANTHROPIC_API_KEY: 'sk-test-not-a-real-key' };

const CHECK_MODULE = `import { writeFileSync } from 'node:fs';
export default (output, context) => {
  writeFileSync(new URL('./checked-' + context.vars.name, import.meta.url), output);
  return output.length > 0;
};
`;

async function writeExperiment(dir: string): Promise<string> {
  const experimentDir = path.join(dir, 'experiments', 'held');
  await mkdir(experimentDir, { recursive: true });
  await writeFile(path.join(experimentDir, 'check.mjs'), CHECK_MODULE);
  await writeFile(path.join(experimentDir, 'prompt.md'), 'Say hello to {{name}}.\n');
  await writeFile(
    path.join(experimentDir, 'cases.yaml'),
    stringify([
      { id: 'first', vars: { name: 'Ada' } },
      { id: 'held', vars: { name: 'Bo' } },
    ]),
  );
  await writeFile(
    path.join(experimentDir, 'experiment.yaml'),
    stringify({
      name: 'held',
      prompt: 'prompt.md',
      cases: 'cases.yaml',
      models: { generator: { provider: 'anthropic', model: 'gen', max_retries: 0 } },
      checks: [{ type: 'javascript', value: 'file://check.mjs' }],
      search: { holdout: 0 },
      concurrency: 2,
    }),
  );
  return experimentDir;
}

async function waitFor(what: string, done: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new ProviderError('server', `gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The experiment above, evaluated once into a fresh candidate folder, its generator scripted. */
async function evaluateWith(
  dir: string,
  generator: (prompt: string, paths: CandidatePaths, experimentDir: string) => Promise<string>,
): Promise<{ outcome: Promise<CandidateOutcome>; paths: CandidatePaths }> {
  const experimentDir = await writeExperiment(dir);
  const { experiment } = await loadExperiment(experimentDir, { cwd: dir, env });
  const paths = candidatePaths(path.join(dir, 'runs', 'r'), 0, 0);
  const scripted = createScriptedProviders({
    gen: ({ request }) => generator(lastUserMessage(request), paths, experimentDir),
  });
  const pool = createModelPool({
    models: experiment.models,
    concurrency: 2,
    env,
    createProvider: scripted.factory,
  });
  const input = {
    experiment,
    prompt: experiment.prompt,
    cases: experiment.cases,
    samples: 1,
    sampleBase: 0,
    seed: 1,
  };
  const outcome = evaluateAndRecord(paths, input, { pool, env }).finally(() => pool.close());
  return { outcome, paths };
}

describe('evaluateAndRecord', () => {
  const tmp = useTempDir('evaluate-and-record-');

  it('writes and checks each output while the other calls still run', async () => {
    const { outcome: evaluated, paths } = await evaluateWith(tmp(), async (prompt, paths, experimentDir) => {
      if (prompt.includes('Bo')) {
        await waitFor('the first output file', () => existsSync(paths.output('first', 0)));
        await waitFor('the first output’s check', () => existsSync(path.join(experimentDir, 'checked-Ada')));
      }
      return `Hello from the model: ${prompt}`;
    });
    const outcome = await evaluated;
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    // Both generated (the held one was released), both checked, in case order.
    expect(outcome.generations.map((g) => [g.caseId, g.ok])).toEqual([
      ['first', true],
      ['held', true],
    ]);
    expect(outcome.evaluation.checks.map((c) => [c.caseId, c.outcomes[0]?.pass])).toEqual([
      ['first', true],
      ['held', true],
    ]);
    // The folder holds every record once the evaluation has resolved.
    expect(await readFile(paths.output('held', 0), 'utf8')).toBe('Hello from the model: Say hello to Bo.\n');
    const checks = JSON.parse(await readFile(paths.checks, 'utf8')) as { results: unknown[] };
    expect(checks.results).toHaveLength(2);
    expect(existsSync(path.join(paths.dir, 'evaluation.json'))).toBe(true);
  });

  it('waits for the writes it started when the evaluation stops half-way', async () => {
    const { outcome, paths } = await evaluateWith(tmp(), async (prompt, paths) => {
      if (prompt.includes('Bo')) {
        await waitFor('the first output file', () => existsSync(paths.output('first', 0)));
        throw new ProviderError('auth', 'the key was refused');
      }
      return 'first output';
    });
    await expect(outcome).rejects.toThrow('the key was refused');
    // What it had is whole; nothing claims the evaluation finished.
    expect(await readFile(paths.output('first', 0), 'utf8')).toBe('first output');
    expect(existsSync(paths.output('held', 0))).toBe(false);
    expect(existsSync(path.join(paths.dir, 'evaluation.json'))).toBe(false);
  });
});
