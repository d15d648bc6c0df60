import { describe, expect, it } from 'vitest';
import { decideEndReason, type EndFacts } from '../../../../src/agent/cli/end-reason.js';

const facts = (over: Partial<EndFacts> = {}, process: Partial<EndFacts['process']> = {}): EndFacts => ({
  process: { exitCode: 0, signal: null, timedOut: false, stderr: '', ...process },
  timeoutMs: 60_000,
  limitReached: false,
  parsed: { ended: 'done' },
  ...over,
});

describe('decideEndReason', () => {
  it('is done for a stream that ended well and a clean exit', () => {
    expect(decideEndReason(facts())).toEqual({ endReason: 'done' });
  });

  it('is timeout at the wall clock, whatever the stream said', () => {
    const ended = decideEndReason(facts({}, { timedOut: true, exitCode: null, signal: 'SIGKILL' }));
    expect(ended).toEqual({
      endReason: 'timeout',
      error: 'the agent was still running after 60 s and was stopped',
    });
  });

  it('is max_turns when the proxy refused a call past the limit or the CLI said so', () => {
    expect(
      decideEndReason(
        facts({ limitReached: true, parsed: { ended: 'error', error: '400' } }, { exitCode: 1 }),
      ),
    ).toEqual({
      endReason: 'max_turns',
    });
    expect(decideEndReason(facts({ parsed: { ended: 'max_turns' } }, { exitCode: 1 })).endReason).toBe(
      'max_turns',
    );
  });

  it("is error in the CLI's words, else with the exit and stderr's last line", () => {
    expect(
      decideEndReason(facts({ parsed: { ended: 'error', error: 'API Error: 401' } }, { exitCode: 1 })),
    ).toEqual({
      endReason: 'error',
      error: 'API Error: 401',
    });
    expect(decideEndReason(facts({ parsed: {} }, { exitCode: 3, stderr: 'boom\nlast words\n' }))).toEqual({
      endReason: 'error',
      error: 'the agent exited with code 3: last words',
    });
    expect(decideEndReason(facts({ overLimit: 'wrote too much' })).error).toBe('the agent wrote too much');
  });
});
