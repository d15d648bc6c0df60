import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/run-checks.js';
import type { CheckEntry } from '../../src/experiment/schema.js';

const baseDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/checks');

async function judge(entry: CheckEntry, output = 'it is ok') {
  const [outcome] = await runChecks({
    output,
    vars: { topic: 'tea' },
    checks: [entry],
    baseDir,
    env: process.env,
  });
  if (outcome === undefined) throw new Error('no outcome');
  return outcome;
}

describe('javascript file checks (child process)', () => {
  it('runs a CommonJS module exporting a function', async () => {
    expect(await judge({ type: 'javascript', value: 'file://js/includes-ok.cjs' })).toMatchObject({
      pass: true,
      score: 1,
    });
    expect(await judge({ type: 'javascript', value: 'file://js/includes-ok.cjs' }, 'nope')).toMatchObject({
      pass: false,
      score: 0,
    });
  });

  it('passes output and context.vars, and keeps the returned reason', async () => {
    expect(await judge({ type: 'javascript', value: 'file://js/score.mjs' })).toEqual(
      expect.objectContaining({ pass: true, score: 0.6, reason: 'topic tea, 8 chars' }),
    );
  });

  it('picks a named export and applies the threshold to its score', async () => {
    const entry: CheckEntry = { type: 'javascript', value: 'file://js/named.mjs:tone', threshold: 0.5 };
    expect(await judge(entry, 'please reply')).toMatchObject({ pass: true, score: 0.9 });
    expect(await judge(entry, 'reply')).toMatchObject({ pass: false, score: 0.2 });
  });

  it('is negated, weighted and gated like any check', async () => {
    const outcome = await judge({
      type: 'not-javascript',
      value: 'file://js/includes-ok.cjs',
      weight: 3,
      gate: true,
    });
    expect(outcome).toMatchObject({ pass: false, score: 0, weight: 3, gate: true });
  });

  it('ignores what the module prints on stdout', async () => {
    expect(await judge({ type: 'javascript', value: 'file://js/noisy.mjs' })).toMatchObject({ pass: true });
  });

  it('does not wait for timers the module leaves behind', async () => {
    const started = Date.now();
    expect(
      await judge({ type: 'javascript', value: 'file://js/keeps-running.mjs', timeout_s: 20 }),
    ).toMatchObject({
      pass: true,
    });
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  describe('isolated from the runner', () => {
    beforeAll(() => {
      (globalThis as Record<string, unknown>)['__runnerState'] = { secret: 1 };
    });
    afterAll(() => {
      delete (globalThis as Record<string, unknown>)['__runnerState'];
    });

    it('cannot see the runner’s globals', async () => {
      expect(await judge({ type: 'javascript', value: 'file://js/runner-state.mjs' })).toMatchObject({
        pass: true,
        reason: 'state undefined',
      });
    });
  });

  it('kills an infinite loop at the timeout, also when negated', async () => {
    const outcome = await judge({ type: 'not-javascript', value: 'file://js/loop.mjs', timeout_s: 0.5 });
    expect(outcome).toMatchObject({ pass: false, score: 0, error: true });
    expect(outcome.reason).toBe('js/loop.mjs timed out after 0.5s');
  });

  it.each([
    ['file://js/throws.mjs', /threw: kaboom/],
    ['file://js/not-a-function.mjs', /does not export a function/],
    ['file://js/named.mjs:missing', /no function export "missing"/],
    ['file://js/absent.mjs', /threw: Cannot find module/],
  ])('fails %s with the error as reason', async (value, reason) => {
    const outcome = await judge({ type: 'javascript', value });
    expect(outcome).toMatchObject({ pass: false, score: 0, error: true });
    expect(outcome.reason).toMatch(reason);
  });

  it('handles a megabyte of output', async () => {
    const huge = `${'x'.repeat(1_000_000)} ok`;
    expect(await judge({ type: 'javascript', value: 'file://js/score.mjs' }, huge)).toMatchObject({
      reason: 'topic tea, 1000003 chars',
    });
  });
});
