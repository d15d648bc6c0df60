/**
 * The loop driven with fakes: failures inside an iteration stay data, and each stop
 * reason of docs/design/commands-and-exit-codes.md ends the run with its journal line and exit
 * code. Scores are scripted through the prompts the mutator proposes (see loop-harness.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/providers/types.js';
import { readFile } from 'node:fs/promises';
import { candidatePaths } from '../../../src/run/paths.js';
import {
  cleanUpScriptedRuns,
  createTestClock,
  finishedEvent,
  promptWith,
  runScripted,
  statusesOf,
  timelineOf,
} from '../../helpers/loop-harness.js';
import { lastUserMessage, mutatorScript, type ScriptedHandler } from '../../helpers/scripted-provider.js';

afterAll(cleanUpScriptedRuns);

const GARBAGE = 'I would rather not answer in JSON today.';
const keepBravo = { hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo']) };
const keepCharlie = { hypothesis: 'Add charlie.', prompt: promptWith(['alpha', 'bravo', 'charlie']) };
const discardZulu = { hypothesis: 'Add zulu.', prompt: promptWith(['alpha', 'zulu']) };
const discardYankee = { hypothesis: 'Add yankee.', prompt: promptWith(['alpha', 'yankee']) };

describe('runLoop: failures inside an iteration are data', () => {
  it('three unusable mutator replies make an error iteration (mutator_error); the run goes on', async () => {
    const mutator = mutatorScript([GARBAGE, GARBAGE, GARBAGE, keepBravo]);
    const run = await runScripted({ mutator, budget: { iterations: 2 } });
    expect(statusesOf(run)).toEqual(['baseline', 'error', 'keep']);
    expect(finishedEvent(run.events, 1)).toMatchObject({ errorKind: 'mutator_error', costUsd: 0 });
    const calls = run.scripted.callsTo('mut');
    expect(calls).toHaveLength(4);
    // Each retry carries the rejected reply and the reason, so the mutator can fix it.
    expect(calls[1]?.request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(lastUserMessage(calls[2]!.request)).toMatch(/no JSON object was found/);
    expect(run.recorder.state().counters.consecutiveErrors).toBe(0);
    expect(run.end.reason).toBe('iterations');
  });

  it('a mutator call failing after retries is an error iteration of kind provider_error', async () => {
    const mutator = mutatorScript([new ProviderError('server', 'HTTP 500 from the mutator'), keepBravo]);
    const run = await runScripted({ mutator, budget: { iterations: 2 } });
    expect(statusesOf(run)).toEqual(['baseline', 'error', 'keep']);
    expect(finishedEvent(run.events, 1)).toMatchObject({
      errorKind: 'provider_error',
      message: expect.stringMatching(/HTTP 500/),
    });
  });

  it('failed generations score 0 on every check of their case; the iteration is decided, not an error', async () => {
    // The candidate naming charlie meets a failing generator on t1 (bad request), t2 (timeouts,
    // retried once) and the holdout case (a crashed program); t3 is served.
    const failing = (kind: 'bad_request' | 'timeout' | 'process') =>
      new ProviderError(kind, `scripted ${kind} failure`);
    const generator: ScriptedHandler = (call) => {
      const text = lastUserMessage(call.request);
      if (!text.includes('charlie')) return text;
      if (text.includes('Ada')) throw failing('bad_request');
      if (text.includes('Bo')) throw failing('timeout');
      if (text.includes('Quillon')) throw failing('process');
      return text;
    };
    const run = await runScripted({
      mutator: mutatorScript([keepCharlie, keepBravo]),
      generator,
      budget: { iterations: 2 },
    });

    expect(statusesOf(run)).toEqual(['baseline', 'gate_fail', 'keep']);
    expect(finishedEvent(run.events, 1).errorKind).toBeUndefined();
    // t3 scores 4/5; t1 and t2 score 0 on all five checks: 4 / 15, nothing dropped from the denominator.
    expect(timelineOf(run.events)).toContain('evaluated 1/0 train 0.267 holdout 0.000 gate-failure');
    const bo = run.scripted.callsTo('gen').filter((c) => /Bo\b/.test(lastUserMessage(c.request)));
    expect(bo.filter((c) => lastUserMessage(c.request).includes('charlie'))).toHaveLength(2);
    const checks = await readFile(candidatePaths(run.runDir, 1, 0).checks, 'utf8');
    expect(checks).toContain('scripted bad_request failure');
  });
});

describe('runLoop: every stop reason', () => {
  it('iterations: stops after the last one, runs the final check, exit 0', async () => {
    const run = await runScripted({ mutator: mutatorScript([keepBravo]), budget: { iterations: 1 } });
    expect(run.end).toEqual({ reason: 'iterations', message: '1 of 1 iterations done', exitCode: 0 });
    expect(timelineOf(run.events).slice(-3)).toEqual([
      'spend generator 8',
      'final baseline 0.400 best 0.600',
      'stopped iterations',
    ]);
    expect(run.recorder.state().journalStatus).toBe('finished');
  });

  it('hours: active time plus the next iteration’s estimate must fit, checked before starting it', async () => {
    const clock = createTestClock();
    // Every generator call takes a minute of the injected clock: one evaluation is 4 minutes.
    const generator: ScriptedHandler = (call) => {
      clock.advance(60);
      return lastUserMessage(call.request);
    };
    const run = await runScripted({
      mutator: mutatorScript([keepBravo, keepCharlie]),
      generator,
      clock,
      budget: { hours: 0.18 },
    });
    // 8 minutes done of 10.8; the next (about 4) would not fit.
    expect(run.end).toEqual({
      reason: 'hours',
      message: 'ran 8 min of 0.18 h; the next iteration (about 4 min) would exceed it',
      exitCode: 0,
    });
    expect(statusesOf(run)).toEqual(['baseline', 'keep']);
    expect(finishedEvent(run.events, 1).seconds).toBe(240);
  });

  it('usd: priced calls add up, and the next iteration’s estimate must fit the budget', async () => {
    // 10k input tokens at $1/Mtok: one cent a call, four cents an evaluation.
    const generator: ScriptedHandler = (call) => ({
      text: lastUserMessage(call.request),
      usage: { inputTokens: 10_000, outputTokens: 0 },
    });
    const run = await runScripted({
      mutator: mutatorScript([keepBravo, keepCharlie]),
      generator,
      generatorEntry: { price: { input_per_mtok: 1, output_per_mtok: 0 } },
      mutatorEntry: { price: { input_per_mtok: 0, output_per_mtok: 0 } },
      budget: { usd: 0.1 },
    });
    expect(run.end).toEqual({
      reason: 'usd',
      message: 'spent $0.080 of $0.100; the next iteration (about $0.040) would exceed it',
      exitCode: 0,
    });
    expect(statusesOf(run)).toEqual(['baseline', 'keep']);
    expect(finishedEvent(run.events, 1).costUsd).toBeCloseTo(0.04, 9);
    // The final check (two more evaluations) would overspend: it is skipped, and the journal says so.
    expect(run.recorder.state().spend.usd).toBeCloseTo(0.08, 9);
    expect(run.recorder.state().finalEvaluation).toBeNull();
    expect(run.events.some((e) => e.type === 'warning' && e.message.startsWith('final check skipped'))).toBe(
      true,
    );
  });

  it('usd: before any iteration ran, the plan’s estimate decides', async () => {
    const mutator = mutatorScript([keepBravo]);
    const run = await runScripted({
      mutator,
      mutatorEntry: { price: { input_per_mtok: 0, output_per_mtok: 0 } },
      budget: { usd: 0.3 },
      planEstimate: { usd: 0.5, seconds: null },
    });
    expect(run.end.reason).toBe('usd');
    expect(statusesOf(run)).toEqual(['baseline']);
    expect(mutator.remaining()).toBe(1);
  });

  it('patience: non-improving iterations in a row; errors pass through without resetting', async () => {
    const mutator = mutatorScript([discardZulu, GARBAGE, GARBAGE, GARBAGE, discardYankee, keepBravo]);
    const run = await runScripted({ mutator, budget: { patience: 2, iterations: 10 } });
    expect(run.end).toEqual({
      reason: 'patience',
      message: '2 iterations in a row without a keep (patience 2)',
      exitCode: 0,
    });
    expect(statusesOf(run)).toEqual(['baseline', 'discard', 'error', 'discard']);
  });

  it('target: stops once the incumbent’s train score reaches it', async () => {
    const run = await runScripted({
      mutator: mutatorScript([keepBravo, keepCharlie, discardZulu]),
      budget: { target: 0.8 },
    });
    expect(run.end).toEqual({
      reason: 'target',
      message: 'the best train score 0.800 reached the target 0.8',
      exitCode: 0,
    });
    expect(statusesOf(run)).toEqual(['baseline', 'keep', 'keep']);
  });

  it('target: a baseline already at the target stops before any mutation', async () => {
    const mutator = mutatorScript([keepBravo]);
    const run = await runScripted({
      prompt: promptWith(['alpha', 'bravo', 'charlie', 'delta']),
      mutator,
      budget: { target: 0.9 },
    });
    expect(run.end.reason).toBe('target');
    expect(statusesOf(run)).toEqual(['baseline']);
    expect(run.scripted.callsTo('mut')).toHaveLength(0);
  });

  it('errors: three error iterations in a row stop the run as resumable, exit 1', async () => {
    const mutator = mutatorScript(Array.from({ length: 9 }, () => GARBAGE));
    const run = await runScripted({ mutator, budget: { iterations: 10 } });
    expect(run.end).toEqual({
      reason: 'errors',
      message: '3 iterations in a row ended in an error',
      exitCode: 1,
    });
    expect(statusesOf(run)).toEqual(['baseline', 'error', 'error', 'error']);
    expect(timelineOf(run.events).at(-1)).toBe('stopped errors');
    expect(run.recorder.state().journalStatus).toBe('stopped');
  });

  it('stop requested: the current iteration finishes, then the run stops (no final check), exit 0', async () => {
    const run = await runScripted({
      mutator: mutatorScript([keepBravo, keepCharlie]),
      stopRequested: (recorder) => recorder.state().completedIterations >= 1,
    });
    expect(run.end).toEqual({
      reason: 'stop_requested',
      message: 'stopped by `autoresearch stop`',
      exitCode: 0,
    });
    expect(statusesOf(run)).toEqual(['baseline', 'keep']);
    expect(timelineOf(run.events).slice(-2)).toEqual(['finish 1 keep', 'stopped stop_requested']);
    expect(run.recorder.state().journalStatus).toBe('stopped');
  });

  it('abort (Ctrl-C): the iteration in flight is journaled as interrupted, exit 130', async () => {
    const controller = new AbortController();
    const generator: ScriptedHandler = (call) => {
      const text = lastUserMessage(call.request);
      if (text.includes('charlie')) controller.abort(new Error('SIGINT'));
      return text;
    };
    const run = await runScripted({
      mutator: mutatorScript([keepBravo, keepCharlie]),
      generator,
      controller,
    });
    expect(run.end).toEqual({
      reason: 'interrupted',
      message: 'interrupted (Ctrl-C); `autoresearch resume` continues',
      exitCode: 130,
    });
    expect(statusesOf(run)).toEqual(['baseline', 'keep', 'interrupted']);
    expect(timelineOf(run.events).slice(-2)).toEqual(['finish 2 interrupted', 'stopped interrupted']);
    expect(run.recorder.state().nextIteration).toBe(2);
  });

  it('auth failure from the generator: no retry, the run stops as resumable, exit 1', async () => {
    const generator: ScriptedHandler = (call) => {
      const text = lastUserMessage(call.request);
      if (text.includes('bravo'))
        throw new ProviderError('auth', 'HTTP 401: invalid x-api-key', { status: 401 });
      return text;
    };
    const run = await runScripted({ mutator: mutatorScript([keepBravo]), generator });
    expect(run.end.reason).toBe('auth');
    expect(run.end.exitCode).toBe(1);
    expect(run.end.message).toMatch(/HTTP 401.*resume/);
    expect(statusesOf(run)).toEqual(['baseline', 'interrupted']);
    expect(timelineOf(run.events).at(-1)).toBe('stopped auth');
    const bravoCalls = run.scripted
      .callsTo('gen')
      .filter((c) => lastUserMessage(c.request).includes('bravo'));
    // One attempt per case: an auth failure is never retried (max_retries is 1 here).
    expect(bravoCalls).toHaveLength(4);
  });

  it("an auth failure's hint (a CLI provider's login) reaches the run's closing message", async () => {
    const hint = 'log in again with `claude auth login`';
    const mutator = mutatorScript([new ProviderError('auth', 'Claude Code is not logged in', { hint })]);
    const run = await runScripted({ mutator });
    expect(run.end.reason).toBe('auth');
    expect(run.end.message).toBe(
      `Claude Code is not logged in (${hint}) — fix it, then \`autoresearch resume\` continues`,
    );
  });

  it('credit exhausted at the mutator: the run stops as resumable, exit 1', async () => {
    const mutator = mutatorScript([new ProviderError('credit', 'credit balance is too low')]);
    const run = await runScripted({ mutator });
    expect(run.end).toMatchObject({ reason: 'credit', exitCode: 1 });
    expect(statusesOf(run)).toEqual(['baseline', 'interrupted']);
    expect(run.scripted.callsTo('mut')).toHaveLength(1);
  });
});
