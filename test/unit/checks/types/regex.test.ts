import { describe, expect, it } from 'vitest';
import { runWithin } from '../../../../src/checks/bounded-run.js';
import { runChecks } from '../../../../src/checks/run-checks.js';
import { REGEX_TIMEOUT_S } from '../../../../src/checks/types/regex.js';
import type { CheckEntry } from '../../../../src/experiment/schema.js';

// Exponential for a backtracking engine: every split of the a's is tried before "!" fails it.
const CATASTROPHIC = '^(a+)+$';
const TRAP = `${'a'.repeat(40)}!`;

async function check(entry: CheckEntry, output: string) {
  const [outcome] = await runChecks({ output, vars: {}, checks: [entry], baseDir: process.cwd(), env: {} });
  if (outcome === undefined) throw new Error('no outcome');
  return outcome;
}

describe('checks that match user regexes are bounded in time', () => {
  it('a pattern that backtracks without end fails the check with the reason, instead of freezing the run', async () => {
    const started = performance.now();
    const outcome = await check({ type: 'regex', value: CATASTROPHIC, timeout_s: 0.2 }, TRAP);
    // Unbounded, this match runs for days: the test would time out.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(outcome).toMatchObject({ pass: false, score: 0, error: true });
    expect(outcome.reason).toContain('did not finish within 0.2s on this output (41 characters)');
    expect(outcome.reason).toContain('(a+)+');
  });

  it('uses the default limit when timeout_s is not given', async () => {
    const outcome = await check({ type: 'regex', value: CATASTROPHIC }, TRAP);
    expect(outcome.error).toBe(true);
    expect(outcome.reason).toContain(`within ${REGEX_TIMEOUT_S}s`);
  });

  it('a timed-out match stays failed under not- (never turned into a pass)', async () => {
    const outcome = await check({ type: 'not-regex', value: CATASTROPHIC, timeout_s: 0.1 }, TRAP);
    expect(outcome).toMatchObject({ pass: false, error: true });
  });

  it('matches as before, including after a timeout, and leaves nothing behind in its context', async () => {
    const test = (pattern: RegExp, text: string, ms: number) => runWithin(() => pattern.test(text), ms);
    expect(test(new RegExp(CATASTROPHIC), TRAP, 50)).toEqual({ kind: 'timeout' });
    expect(test(/^Subject: .+/, 'Subject: hi', 1000)).toEqual({ kind: 'done', value: true });
    expect(test(/\?\s*$/, 'no question.', 1000)).toEqual({ kind: 'done', value: false });
    expect(test(new RegExp(CATASTROPHIC), 'aaaa', 1000)).toEqual({ kind: 'done', value: true });
    const outcome = await check({ type: 'regex', value: '\\?\\s*$' }, 'Shall we talk?  ');
    expect(outcome).toMatchObject({ pass: true, score: 1 });
    expect(outcome.reason).toBe('output matches /\\?\\s*$/');
  });

  it('reports what the work threw, and bounds JSON schemas whose patterns backtrack', async () => {
    expect(
      runWithin(() => {
        throw new RangeError('too deep');
      }, 1000),
    ).toEqual({ kind: 'failed', message: 'too deep' });

    const schema = { type: 'object', properties: { code: { type: 'string', pattern: CATASTROPHIC } } };
    const trapJson = JSON.stringify({ code: TRAP });
    const isJson = await check({ type: 'is-json', value: schema, timeout_s: 0.2 }, trapJson);
    expect(isJson).toMatchObject({ pass: false, error: true });
    expect(isJson.reason).toContain('did not finish within 0.2s');
    const containsJson = await check(
      { type: 'contains-json', value: schema, timeout_s: 0.2 },
      `Here: ${trapJson} and again ${trapJson}`,
    );
    expect(containsJson).toMatchObject({ pass: false, error: true });
    // A sane value still validates, through the same bounded path.
    expect(await check({ type: 'is-json', value: schema }, JSON.stringify({ code: 'aaa' }))).toMatchObject({
      pass: true,
    });
    const mismatch = await check({ type: 'is-json', value: schema }, JSON.stringify({ code: 'ab' }));
    expect(mismatch.pass).toBe(false);
    expect(mismatch.error).toBeFalsy();
    expect(mismatch.reason).toContain('does not match the schema');
  });
});
