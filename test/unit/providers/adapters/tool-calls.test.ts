/** Tool calls read from responses of servers that bend the wire format: nothing is lost or thrown. */
import { describe, expect, it } from 'vitest';
import { parseAnthropicResponse } from '../../../../src/providers/adapters/anthropic.js';
import { parseOpenAiResponse } from '../../../../src/providers/adapters/openai.js';

const openAiCall = (args: unknown) => ({
  choices: [
    {
      message: {
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: args } }],
      },
      finish_reason: 'tool_calls',
    },
  ],
});

describe('tool calls from odd responses', () => {
  it('openai: no arguments is {}, an object as is, non-object JSON kept raw', () => {
    const args = (value: unknown) => parseOpenAiResponse(openAiCall(value), 'L').toolCalls?.[0]?.arguments;
    expect(args('')).toEqual({});
    expect(args({ a: 1 })).toEqual({ a: 1 });
    expect(args('[1,2]')).toEqual({ _raw: '[1,2]' });
    expect(args('{"a": 1')).toEqual({ _raw: '{"a": 1' });
  });

  it('openai: skips entries that are not function calls', () => {
    const json = openAiCall('{}');
    const message = json.choices[0]?.message as { tool_calls: unknown[] };
    message.tool_calls.push({ id: 'x', type: 'custom', custom: { name: 'g', input: 'q' } }, 'junk');
    expect(parseOpenAiResponse(json, 'L').toolCalls).toEqual([{ id: 'c', name: 'f', arguments: {} }]);
  });

  it('anthropic: a non-object input is kept raw; server tool blocks are not ours', () => {
    const parsed = parseAnthropicResponse(
      {
        content: [
          { type: 'server_tool_use', id: 's', name: 'web_search', input: { q: 'x' } },
          { type: 'tool_use', id: 't', name: 'f', input: 'oops' },
        ],
        stop_reason: 'tool_use',
      },
      'L',
    );
    expect(parsed.toolCalls).toEqual([{ id: 't', name: 'f', arguments: { _raw: '"oops"' } }]);
    expect(parsed.text).toBe('');
  });
});
