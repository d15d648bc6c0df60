// The fake server's streamed replies and its Responses API, read by the official SDKs (the same
// event grammar Claude Code and Codex parse): text, tool calls and usage arrive whole.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, type FakeRequest, startFakeLlmServer } from '../helpers/fake-llm-server.js';

let server: FakeLlmServer;
let seen: FakeRequest[] = [];
beforeAll(async () => {
  server = await startFakeLlmServer({
    respond: (req) => {
      seen.push(req);
      return req.tools === undefined
        ? { text: 'streamed reply', usage: { input_tokens: 11, output_tokens: 4 } }
        : { toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { id: 'A17' } }] };
    },
  });
});
afterAll(() => server.close());

describe('fake LLM server: streams and the Responses API', () => {
  it('streams an Anthropic message the SDK reassembles, tool calls included', async () => {
    const client = new Anthropic({ apiKey: 'k', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
    const text = await client.messages
      .stream({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage();
    expect(text.content).toMatchObject([{ type: 'text', text: 'streamed reply' }]);
    expect(text.usage).toMatchObject({ input_tokens: 11, output_tokens: 4 });
    expect(text.stop_reason).toBe('end_turn');
    const call = await client.messages
      .stream({
        model: 'claude-x',
        max_tokens: 10,
        tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
        messages: [{ role: 'user', content: 'where?' }],
      })
      .finalMessage();
    expect(call.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'lookup', input: { id: 'A17' } }]);
    expect(call.stop_reason).toBe('tool_use');
  });

  it('reads a Responses request (instructions, developer and user messages, tool turns, schema) and streams the answer', async () => {
    seen = [];
    const client = new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseUrl, maxRetries: 0 });
    const stream = await client.responses.create({
      model: 'gpt-x',
      stream: true,
      instructions: 'be brief',
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'no tables' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'where is A17?' }] },
        { type: 'function_call', call_id: 'c0', name: 'lookup', arguments: '{"id":"A17"}' },
        { type: 'function_call_output', call_id: 'c0', output: 'shipped' },
      ],
      text: { format: { type: 'json_schema', name: 'eta', schema: { type: 'object' }, strict: true } },
    });
    let completed: OpenAI.Responses.Response | undefined;
    let deltas = '';
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') deltas += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(deltas).toBe('streamed reply');
    expect(completed?.output).toMatchObject([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'streamed reply' }] },
    ]);
    expect(completed?.usage).toMatchObject({ input_tokens: 11, output_tokens: 4 });
    expect(seen[0]).toMatchObject({
      api: 'openai-responses',
      system: 'be brief\nno tables',
      messages: [
        { role: 'user', content: 'where is A17?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c0', name: 'lookup', arguments: { id: 'A17' } }],
        },
        { role: 'tool', toolCallId: 'c0', content: 'shipped' },
      ],
      output: { name: 'eta', schema: { type: 'object' }, strict: true },
    });
  });

  it('answers a Responses call without stream as one JSON response with its function calls', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseUrl, maxRetries: 0 });
    const response = await client.responses.create({
      model: 'gpt-x',
      input: 'where?',
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' }, strict: false }],
    });
    expect(response.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'call_1',
        name: 'lookup',
        arguments: '{"id":"A17"}',
      }),
    ]);
  });
});
