import { describe, expect, it } from 'vitest';
import { transcriptMarkdown } from '../../../src/agent/transcript-markdown.js';

describe('transcriptMarkdown', () => {
  it('one section per turn: text, the call with its arguments, the result with what was cut', () => {
    const text = transcriptMarkdown('case a, sample 0', [
      { kind: 'assistant', turn: 1, text: 'Reading the notes.' },
      { kind: 'tool_call', turn: 1, id: 't1', tool: 'Bash', input: { command: 'ls notes' } },
      {
        kind: 'tool_result',
        turn: 1,
        id: 't1',
        isError: false,
        content: 'a.md',
        truncated: { originalChars: 9000 },
      },
      { kind: 'tool_result', turn: 2, id: 't2', isError: true, content: 'no such file' },
      { kind: 'error', turn: 2, message: 'stream ended' },
    ]);
    expect(text).toBe(
      [
        '# case a, sample 0',
        '',
        '## Turn 1',
        '',
        'Reading the notes.',
        '',
        '**Bash** `t1`',
        '',
        '```',
        '{\n  "command": "ls notes"\n}',
        '```',
        '',
        'Result of `t1` (cut: 8996 of 9000 characters left out):',
        '',
        '```\na.md\n```',
        '',
        '## Turn 2',
        '',
        'Error from `t2`:',
        '',
        '```\nno such file\n```',
        '',
        '**Error:** stream ended',
        '',
      ].join('\n'),
    );
  });

  it('fences content longer than any backtick run inside it, so a tool result cannot close its block', () => {
    const text = transcriptMarkdown('t', [
      { kind: 'tool_result', turn: 1, id: 'x', isError: false, content: 'a ```` b' },
    ]);
    expect(text).toContain('`````\na ```` b\n`````');
  });
});
