import { describe, expect, it } from 'vitest';
import { readCallUsage } from '../../../../src/agent/cli/call-usage.js';

const sse = (...events: unknown[]) => events.map((e) => `event: x\ndata: ${JSON.stringify(e)}\n\n`).join('');

describe('readCallUsage', () => {
  it("reads a streamed Messages answer's model and usage, cached parts included", () => {
    const text = sse(
      {
        type: 'message_start',
        message: {
          type: 'message',
          model: 'claude-sonnet-4-5',
          usage: {
            input_tokens: 3,
            cache_read_input_tokens: 100,
            cache_creation_input_tokens: 20,
            output_tokens: 1,
          },
        },
      },
      { type: 'content_block_delta', delta: { type: 'text_delta', text: 'hi' } },
      { type: 'message_delta', usage: { output_tokens: 42 } },
    );
    expect(readCallUsage('anthropic', text)).toEqual({
      model: 'claude-sonnet-4-5',
      usage: { inputTokens: 123, outputTokens: 42, cacheReadTokens: 100, cacheWriteTokens: 20 },
    });
  });

  it("reads the Responses API's completed event, and a JSON body", () => {
    const usage = { input_tokens: 50, output_tokens: 5, input_tokens_details: { cached_tokens: 30 } };
    const streamed = sse(
      { type: 'response.created', response: { model: 'gpt-5.5' } },
      { type: 'response.completed', response: { model: 'gpt-5.5', usage } },
      '[DONE]',
    );
    const expected = { model: 'gpt-5.5', usage: { inputTokens: 50, outputTokens: 5, cacheReadTokens: 30 } };
    expect(readCallUsage('openai', streamed)).toEqual(expected);
    expect(readCallUsage('openai', JSON.stringify({ object: 'response', model: 'gpt-5.5', usage }))).toEqual(
      expected,
    );
    expect(readCallUsage('openai', 'not json')).toEqual({ usage: { inputTokens: 0, outputTokens: 0 } });
  });
});
