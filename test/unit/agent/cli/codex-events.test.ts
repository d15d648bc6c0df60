import { describe, expect, it } from 'vitest';
import { parseCodexStream } from '../../../../src/agent/cli/codex-events.js';

const lines = (...events: unknown[]) => events.map((e) => JSON.stringify(e)).join('\n');

describe('parseCodexStream', () => {
  it('reads messages, commands with their output and exit code, file changes and usage', () => {
    const parsed = parseCodexStream(
      lines(
        { type: 'thread.started', thread_id: 'x' },
        {
          type: 'item.completed',
          item: {
            id: 'i0',
            type: 'command_execution',
            command: 'bash -lc ls',
            aggregated_output: 'a\n',
            exit_code: 2,
            status: 'failed',
          },
        },
        {
          type: 'item.completed',
          item: {
            id: 'i1',
            type: 'file_change',
            changes: [{ path: 'a.txt', kind: 'add' }],
            status: 'completed',
          },
        },
        { type: 'item.completed', item: { id: 'i2', type: 'agent_message', text: 'Done.' } },
        { type: 'turn.completed', usage: { input_tokens: 100, cached_input_tokens: 60, output_tokens: 9 } },
      ),
    );
    expect(parsed.transcript).toEqual([
      { kind: 'tool_call', turn: 1, id: 'i0', tool: 'exec_command', input: { command: 'bash -lc ls' } },
      { kind: 'tool_result', turn: 1, id: 'i0', isError: true, content: 'a\n' },
      {
        kind: 'tool_call',
        turn: 2,
        id: 'i1',
        tool: 'apply_patch',
        input: { changes: [{ path: 'a.txt', kind: 'add' }] },
      },
      { kind: 'tool_result', turn: 2, id: 'i1', isError: false, content: 'completed' },
      { kind: 'assistant', turn: 3, text: 'Done.' },
    ]);
    expect(parsed).toMatchObject({ ended: 'done', finalMessage: 'Done.' });
    expect(parsed.turns).toBeUndefined();
    expect(parsed.usage).toEqual({
      inputTokens: 100,
      outputTokens: 9,
      cacheReadTokens: 60,
      cacheWriteTokens: 0,
    });
  });

  it('says error with the turn failure and nothing for a stream without an end', () => {
    const failed = parseCodexStream(
      lines({ type: 'turn.failed', error: { message: 'unexpected status 400' } }),
    );
    expect(failed).toMatchObject({ ended: 'error', error: 'unexpected status 400' });
    expect(parseCodexStream(lines({ type: 'turn.started' })).ended).toBeUndefined();
  });
});
