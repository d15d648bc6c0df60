import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AutoresearchError } from '../../../src/errors.js';
import {
  findMissingKeys,
  keyVariables,
  refuseMissingEvalKeys,
} from '../../../src/eval-command/require-keys.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import type { Experiment } from '../../../src/experiment/types.js';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/eval/support-reply');
let experiment: Experiment;
beforeAll(async () => {
  ({ experiment } = await loadExperiment(FIXTURE, { cwd: FIXTURE, env: {} }));
});

function withModels(models: Partial<Experiment['models']>): Experiment {
  return { ...experiment, models: { ...experiment.models, ...models } };
}

describe('refuseMissingEvalKeys', () => {
  it('refuses with exit 2, naming the variable and the roles that need it', () => {
    const error = (() => {
      try {
        refuseMissingEvalKeys(experiment, { ANTHROPIC_API_KEY: '  ' });
      } catch (caught) {
        return caught as AutoresearchError;
      }
      throw new Error('did not refuse');
    })();
    expect(error).toBeInstanceOf(AutoresearchError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      'ANTHROPIC_API_KEY is not set: ANTHROPIC_API_KEY (needed by generator, judge, grader)',
    );
    expect(error.hint).toContain('--provider sim');
  });

  it('passes when the key is set, and ignores the mutator, which eval never calls', () => {
    expect(() => refuseMissingEvalKeys(experiment, { ANTHROPIC_API_KEY: 'k' })).not.toThrow();
    const mutatorOnOpenai = withModels({ mutator: { provider: 'openai', model: 'gpt-4o' } });
    expect(findMissingKeys(mutatorOnOpenai, { ANTHROPIC_API_KEY: 'k' }).size).toBe(0);
  });

  it('follows api_key_env, local servers without keys, sim and judge programs', () => {
    const custom = withModels({
      generator: { provider: 'openai', model: 'm', api_key_env: 'MY_KEY' },
      judge: { provider: 'openai', model: 'm', base_url: 'http://127.0.0.1:11434/v1' },
      grader: { command: ['node', 'grader.mjs'] },
    });
    expect([...findMissingKeys(custom, {})]).toEqual([['MY_KEY', ['generator']]]);
    expect(keyVariables(custom)).toEqual(['MY_KEY', 'OPENAI_API_KEY']);
    const sim = withModels({
      generator: { provider: 'sim' },
      judge: { provider: 'sim' },
      grader: { provider: 'sim' },
    });
    expect(findMissingKeys(sim, {}).size).toBe(0);
    expect(keyVariables(sim)).toEqual([]);
  });
});
