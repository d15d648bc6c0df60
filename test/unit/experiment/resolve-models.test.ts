import { describe, expect, it } from 'vitest';
import {
  validateModelEntries,
  describeModelOrigins,
  findModelWarnings,
  resolveModels,
} from '../../../src/experiment/resolve-models.js';
import type { ModelEntry } from '../../../src/experiment/schema.js';

const where = { file: '/e.yaml', locate: () => ({ line: 1, col: 1 }) };
const generator: ModelEntry = {
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  temperature: 0.7,
  max_tokens: 500,
};

describe('validateModelEntries', () => {
  it('accepts well-formed entries for every provider', () => {
    expect(
      validateModelEntries(
        {
          generator,
          mutator: { provider: 'openai', model: 'gpt-4o-mini' },
          judge: { command: ['node', 'judge.mjs'] },
          grader: { provider: 'command', command: ['./grade'], input: 'file' },
        },
        where,
      ),
    ).toEqual([]);
    expect(
      validateModelEntries({ generator: { provider: 'claude-cli', binary: '/opt/claude' } }, where),
    ).toEqual([]);
    expect(
      validateModelEntries({ generator: { provider: 'sim' }, judge: { provider: 'sim', samples: 3 } }, where),
    ).toEqual([]);
  });

  it('requires model for anthropic and openai, command for command', () => {
    const problems = validateModelEntries(
      {
        generator: { provider: 'anthropic' },
        mutator: { provider: 'openai' },
        grader: { provider: 'command' },
      },
      where,
    );
    expect(problems.map((p) => [p.keyPath, p.message])).toEqual([
      ['models.generator', 'provider `anthropic` needs `model`'],
      ['models.mutator', 'provider `openai` needs `model`'],
      ['models.grader', 'provider `command` needs `command` (the program and its arguments as a list)'],
    ]);
  });

  it('allows samples on the judge only', () => {
    const problems = validateModelEntries(
      { generator: { provider: 'sim', samples: 2 }, grader: { provider: 'sim', samples: 2 } },
      where,
    );
    expect(problems.map((p) => p.keyPath)).toEqual(['models.generator.samples', 'models.grader.samples']);
  });

  it('refuses provider-specific keys on other providers', () => {
    const problems = validateModelEntries(
      { generator: { provider: 'sim', command: ['x'], binary: 'y' } },
      where,
    );
    expect(problems.map((p) => p.keyPath)).toEqual(['models.generator.command', 'models.generator.binary']);
  });
});

describe('resolveModels', () => {
  it('defaults the mutator to the generator and leaves out unused roles', () => {
    const models = resolveModels({ generator }, { hasRubric: false, hasExpectations: false });
    expect(models).toEqual({ generator, mutator: generator });
  });

  it('defaults the judge to the generator at temperature 0 when there is a rubric', () => {
    const models = resolveModels({ generator }, { hasRubric: true, hasExpectations: false });
    expect(models.judge).toEqual({ ...generator, temperature: 0 });
  });

  it("defaults the grader to the judge's model entry without its samples", () => {
    const judge: ModelEntry = { provider: 'openai', model: 'gpt-4.1', temperature: 0, samples: 3 };
    const models = resolveModels({ generator, judge }, { hasRubric: true, hasExpectations: true });
    expect(models.grader).toEqual({ provider: 'openai', model: 'gpt-4.1', temperature: 0 });
    expect(describeModelOrigins({ generator, judge }, { hasRubric: true, hasExpectations: true })).toEqual({
      generator: 'configured',
      mutator: 'defaulted from generator',
      judge: 'configured',
      grader: 'defaulted from judge',
    });
  });

  it("uses the generator's entry for the grader when the judge is a program", () => {
    const models = resolveModels(
      { generator, judge: { command: ['j'] } },
      { hasRubric: true, hasExpectations: true },
    );
    expect(models.grader).toEqual({ ...generator, temperature: 0 });
  });

  it('keeps a configured grader even without a rubric', () => {
    const grader = { command: ['g'] };
    expect(resolveModels({ generator, grader }, { hasRubric: false, hasExpectations: true }).grader).toBe(
      grader,
    );
  });
});

describe('findModelWarnings', () => {
  const needs = { hasRubric: true, hasExpectations: false };

  it('warns that the CLI providers ignore temperature and max_tokens, where they are set', () => {
    const configured = {
      generator: { provider: 'claude-cli' as const, temperature: 0.7, max_tokens: 600 },
      mutator: { provider: 'codex-cli' as const, max_tokens: 4000 },
    };
    const warnings = findModelWarnings(configured, resolveModels(configured, needs), needs, {}, where);
    expect(warnings.map((w) => [w.keyPath, w.message])).toEqual([
      [
        'models.generator.temperature',
        '`temperature` is ignored by provider `claude-cli`: the CLI has no such setting',
      ],
      [
        'models.generator.max_tokens',
        '`max_tokens` is ignored by provider `claude-cli`: the CLI has no such setting',
      ],
      [
        'models.mutator.max_tokens',
        '`max_tokens` is ignored by provider `codex-cli`: the CLI has no such setting',
      ],
    ]);
  });

  it('warns once per missing key variable, naming every role that needs it', () => {
    const models = resolveModels({ generator }, needs);
    const warnings = findModelWarnings({ generator }, models, needs, {}, where);
    expect(warnings).toEqual([
      expect.objectContaining({
        severity: 'warning',
        keyPath: 'models.generator',
        message: 'ANTHROPIC_API_KEY is not set (needed by generator, mutator, judge)',
      }),
    ]);
    expect(findModelWarnings({ generator }, models, needs, { ANTHROPIC_API_KEY: 'k' }, where)).toEqual([]);
  });

  it('names the variable from api_key_env and never needs a key for local servers or sim', () => {
    const custom: ModelEntry = { provider: 'openai', model: 'm', api_key_env: 'MY_KEY' };
    const local: ModelEntry = { provider: 'openai', model: 'llama', base_url: 'http://127.0.0.1:11434/v1' };
    const configured = { generator: custom, mutator: local, judge: { provider: 'sim' as const } };
    const warnings = findModelWarnings(configured, resolveModels(configured, needs), needs, {}, where);
    expect(warnings.map((w) => w.message)).toEqual(['MY_KEY is not set (needed by generator)']);
  });

  it('warns about a judge without a rubric and a grader without expectations', () => {
    const configured = {
      generator: { provider: 'sim' as const },
      judge: { provider: 'sim' as const },
      grader: { command: ['g'] },
    };
    const none = { hasRubric: false, hasExpectations: false };
    const warnings = findModelWarnings(configured, resolveModels(configured, none), none, {}, where);
    expect(warnings.map((w) => w.keyPath)).toEqual(['models.judge', 'models.grader']);
  });
});
