import { describe, expect, it } from 'vitest';
import { CheckOutcome } from '../../../src/checks/check-result.js';
import { negate, runChecks } from '../../../src/checks/run-checks.js';
import type { CheckEntry } from '../../../src/experiment/schema.js';

const base = { vars: {}, baseDir: process.cwd(), env: {} };

describe('runChecks', () => {
  const checks: CheckEntry[] = [
    { type: 'starts-with', value: 'Subject:', gate: true },
    { type: 'word-count', max: 5, weight: 2 },
    { type: 'icontains', value: 'billing', name: 'mentions billing' },
  ];

  it('applies every check in order and yields outcomes of the recorded shape', async () => {
    const outcomes = await runChecks({ ...base, output: 'Subject: usage billing', checks });
    expect(outcomes.map((o) => [o.name, o.pass, o.weight, o.gate])).toEqual([
      ['starts-with: Subject:', true, 1, true],
      ['word-count: <= 5', true, 2, false],
      ['mentions billing', true, 1, false],
    ]);
    for (const outcome of outcomes) expect(CheckOutcome.parse(outcome)).toEqual(outcome);
  });

  it('scores a failed generation 0 on every check, negated ones included', async () => {
    const outcomes = await runChecks({
      ...base,
      output: null,
      generationError: 'provider returned 500',
      checks: [...checks, { type: 'not-contains', value: 'x' }],
    });
    expect(outcomes).toHaveLength(4);
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({
        pass: false,
        score: 0,
        reason: 'generation failed: provider returned 500',
      });
    }
  });

  it('turns an unknown type or an invalid entry into a failed outcome, never an exception', async () => {
    const outcomes = await runChecks({
      ...base,
      output: 'x',
      checks: [
        { type: 'similar', value: 'x' },
        { type: 'not-regex', value: '(' },
      ],
    });
    expect(outcomes[0]).toMatchObject({ pass: false, error: true, reason: 'unknown check type "similar"' });
    expect(outcomes[1]).toMatchObject({ pass: false, error: true });
    expect(outcomes[1]?.reason).toMatch(/^invalid check: value: Invalid regular expression/);
  });

  it('throws when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(runChecks({ ...base, output: 'x', checks, signal: controller.signal })).rejects.toThrow(
      'stop',
    );
  });

  it('returns nothing for no checks', async () => {
    expect(await runChecks({ ...base, output: 'x', checks: [] })).toEqual([]);
  });
});

describe('negate', () => {
  it('inverts pass and score and explains a new failure', () => {
    expect(negate({ pass: true, score: 1, reason: 'output contains "x"' })).toEqual({
      pass: false,
      score: 0,
      reason: 'expected the opposite, but output contains "x"',
    });
    expect(negate({ pass: false, score: 0.3, reason: 'r' })).toEqual({ pass: true, score: 0.7, reason: 'r' });
  });

  it('leaves a check that could not judge failed', () => {
    const crashed = { pass: false, score: 0, reason: 'timed out', error: true };
    expect(negate(crashed)).toBe(crashed);
  });
});
