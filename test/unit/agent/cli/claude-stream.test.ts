import { describe, expect, it } from 'vitest';
import { TOOL_RESULT_LIMIT } from '../../../../src/agent/agent-run.js';
import { parseClaudeStream } from '../../../../src/agent/cli/claude-stream.js';

const lines = (...events: unknown[]) => events.map((e) => JSON.stringify(e)).join('\n');

describe('parseClaudeStream', () => {
  const assistant = (id: string, content: unknown[]) => ({ type: 'assistant', message: { id, content } });
  const result = (extra: Record<string, unknown>) => ({
    type: 'result',
    subtype: 'success',
    is_error: false,
    num_turns: 2,
    result: 'Done.',
    total_cost_usd: 0.012,
    usage: {
      input_tokens: 10,
      cache_read_input_tokens: 90,
      cache_creation_input_tokens: 5,
      output_tokens: 7,
    },
    ...extra,
  });

  it('reads turns, tool calls with their results, usage and the reported cost', () => {
    const parsed = parseClaudeStream(
      lines(
        { type: 'system', subtype: 'init' },
        assistant('m1', [{ type: 'text', text: 'Looking.' }]),
        assistant('m1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }]),
        {
          type: 'user',
          message: {
            content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x'.repeat(TOOL_RESULT_LIMIT + 5) }],
          },
        },
        assistant('m2', [{ type: 'text', text: 'Done.' }]),
        result({}),
      ),
    );
    expect(parsed.transcript.map((e) => [e.kind, e.turn])).toEqual([
      ['assistant', 1],
      ['tool_call', 1],
      ['tool_result', 1],
      ['assistant', 2],
    ]);
    const cut = parsed.transcript[2];
    expect(cut).toMatchObject({ kind: 'tool_result', truncated: { originalChars: TOOL_RESULT_LIMIT + 5 } });
    expect(cut?.kind === 'tool_result' && cut.content.length).toBe(TOOL_RESULT_LIMIT);
    expect(parsed).toMatchObject({ ended: 'done', turns: 2, finalMessage: 'Done.', reportedCostUsd: 0.012 });
    expect(parsed.usage).toEqual({
      inputTokens: 105,
      outputTokens: 7,
      cacheReadTokens: 90,
      cacheWriteTokens: 5,
    });
  });

  it('says max_turns for error_max_turns and error, in its words, for a failed result', () => {
    expect(parseClaudeStream(lines(result({ subtype: 'error_max_turns', is_error: true }))).ended).toBe(
      'max_turns',
    );
    const failed = parseClaudeStream(lines(result({ is_error: true, result: 'API Error: 500' })));
    expect(failed).toMatchObject({ ended: 'error', error: 'API Error: 500' });
    expect(parseClaudeStream('').ended).toBeUndefined();
  });
});
