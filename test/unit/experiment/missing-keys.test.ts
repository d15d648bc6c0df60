import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AutoresearchError } from '../../../src/errors.js';
import { EVAL_ROLES, keyVariables } from '../../../src/eval-command/eval-roles.js';
import { findMissingKeys, refuseMissingKeys } from '../../../src/experiment/missing-keys.js';
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

describe('refuseMissingKeys for the roles eval calls', () => {
  it('refuses with exit 2, naming the variable and the roles that need it', () => {
    const error = (() => {
      try {
        refuseMissingKeys(experiment, { ANTHROPIC_API_KEY: '  ' }, EVAL_ROLES);
      } catch (caught) {
        return caught as AutoresearchError;
      }
      throw new Error('did not refuse');
    })();
    expect(error).toBeInstanceOf(AutoresearchError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('ANTHROPIC_API_KEY is not set (needed by generator, judge, grader)');
    expect(error.hint).toContain('--provider sim');
  });

  it('passes when the key is set, and ignores the mutator, which eval never calls', () => {
    expect(() => refuseMissingKeys(experiment, { ANTHROPIC_API_KEY: 'k' }, EVAL_ROLES)).not.toThrow();
    const mutatorOnOpenai = withModels({ mutator: { provider: 'openai', model: 'gpt-4o' } });
    expect(findMissingKeys(mutatorOnOpenai, { ANTHROPIC_API_KEY: 'k' }, EVAL_ROLES).size).toBe(0);
  });

  it('follows api_key_env, local servers without keys, sim and judge programs', () => {
    const custom = withModels({
      generator: { provider: 'openai', model: 'm', api_key_env: 'MY_KEY' },
      judge: { provider: 'openai', model: 'm', base_url: 'http://127.0.0.1:11434/v1' },
      grader: { command: ['node', 'grader.mjs'] },
    });
    expect([...findMissingKeys(custom, {}, EVAL_ROLES)]).toEqual([['MY_KEY', ['generator']]]);
    expect(keyVariables(custom)).toEqual(['MY_KEY', 'OPENAI_API_KEY']);
    const sim = withModels({
      generator: { provider: 'sim' },
      judge: { provider: 'sim' },
      grader: { provider: 'sim' },
    });
    expect(findMissingKeys(sim, {}, EVAL_ROLES).size).toBe(0);
    expect(keyVariables(sim)).toEqual([]);
  });
});

describe('refuseMissingKeys for a run (every role)', () => {
  it('counts the mutator, treats a blank key as missing, and names every variable in one message', () => {
    const twoProviders = withModels({ mutator: { provider: 'openai', model: 'gpt-4o' } });
    const error = (() => {
      try {
        refuseMissingKeys(twoProviders, { ANTHROPIC_API_KEY: ' ', OPENAI_API_KEY: '' });
      } catch (caught) {
        return caught as AutoresearchError;
      }
      throw new Error('did not refuse');
    })();
    expect(error.code).toBe('E_MISSING_KEY');
    expect(error.message).toBe(
      'ANTHROPIC_API_KEY is not set (needed by generator, judge, grader); OPENAI_API_KEY is not set (needed by mutator)',
    );
    expect(error.hint).toBe(
      'export ANTHROPIC_API_KEY=… in this shell (keys are read from the environment only), or try it offline with --provider sim',
    );
    expect(() =>
      refuseMissingKeys(twoProviders, { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k' }),
    ).not.toThrow();
  });

  it('names each panel member once under its role', () => {
    const panel = withModels({
      judge: {
        panel: [
          { provider: 'openai', model: 'a', api_key_env: 'PANEL_KEY' },
          { provider: 'openai', model: 'b', api_key_env: 'PANEL_KEY' },
        ],
        aggregate: 'median',
      },
    });
    expect(findMissingKeys(panel, { ANTHROPIC_API_KEY: 'k' })).toEqual(new Map([['PANEL_KEY', ['judge']]]));
  });
});
