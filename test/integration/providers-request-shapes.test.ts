/**
 * docs/design/prompt-shapes.md over the wire: each prompt shape as the Anthropic and
 * OpenAI-compatible adapters send it to the fake server (exact bodies), the tool calls they read
 * back, and the plain single-message request of a path `prompt:` byte for byte as it was before
 * prompt shapes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../src/experiment/schema.js';
import { createAnthropicProvider } from '../../src/providers/adapters/anthropic.js';
import { createOpenAiProvider } from '../../src/providers/adapters/openai.js';
import type { ChatMessage, CompletionRequest, Provider } from '../../src/providers/types.js';
import { type FakeLlmServer, type ReplySpec, startFakeLlmServer } from '../helpers/fake-llm-server.js';

let server: FakeLlmServer;
let reply: ReplySpec = { text: 'ok' };

beforeAll(async () => {
  server = await startFakeLlmServer({ respond: () => reply });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  reply = { text: 'ok' };
});

const env = { ANTHROPIC_API_KEY: 'sk-ant-test', OPENAI_API_KEY: 'sk-test' };
const anthropic = (over: Partial<ModelEntry> = {}): Provider =>
  createAnthropicProvider(
    { provider: 'anthropic', model: 'claude-sonnet-4-5', base_url: server.anthropicBaseUrl, ...over },
    { env },
  );
const openai = (over: Partial<ModelEntry> = {}): Provider =>
  createOpenAiProvider(
    { provider: 'openai', model: 'gpt-4o-mini', base_url: server.openaiBaseUrl, ...over },
    { env },
  );

const SYSTEM = 'You extract invoice fields.\nAnswer in JSON.';
/** Template messages, then a case's history: a call with a tool result, two parallel calls, a follow-up. */
const CONVERSATION: ChatMessage[] = [
  { role: 'user', content: 'Customer tier: gold' },
  { role: 'user', content: 'Invoice INV-7 from ACME' },
  {
    role: 'assistant',
    content: 'Looking it up.',
    toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { invoice: 'INV-7' } }],
  },
  { role: 'tool', toolCallId: 'call_1', content: '{"total": 120}' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'call_2', name: 'lookup', arguments: { invoice: 'INV-8' } },
      { id: 'call_3', name: 'vat', arguments: { country: 'DE', amount: 120 } },
    ],
  },
  { role: 'tool', toolCallId: 'call_2', content: 'not found' },
  { role: 'tool', toolCallId: 'call_3', content: '22.8' },
  { role: 'user', content: 'Now the totals, please.' },
];
const LOOKUP = {
  name: 'lookup',
  description: 'Find an invoice by number',
  parameters: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'] },
};
const VAT = { name: 'vat', parameters: { type: 'object', properties: { country: { type: 'string' } } } };
/** In OpenAI's strict subset: closed, every property required. */
const STRICT_SCHEMA = {
  type: 'object',
  properties: { total: { type: 'number' }, lines: { type: 'array', items: { type: 'string' } } },
  required: ['total', 'lines'],
  additionalProperties: false,
};
const FULL: CompletionRequest = {
  system: SYSTEM,
  messages: CONVERSATION,
  tools: [LOOKUP, VAT],
  output: { name: 'invoice.schema', schema: STRICT_SCHEMA },
  temperature: 0,
  maxTokens: 500,
};

function lastBody(): unknown {
  return server.log.at(-1)?.body;
}

describe('a path prompt: one user message, no output, no tools', () => {
  const request: CompletionRequest = {
    system: 'Be brief.',
    messages: [{ role: 'user', content: 'Write a haiku about {{topic}}: "rain"' }],
    temperature: 0.2,
    maxTokens: 300,
  };

  // The bodies below were captured from the adapters just before prompt shapes
  // (docs/design/prompt-shapes.md).
  it('sends the same Anthropic bytes as before', async () => {
    await anthropic({ params: { top_k: 5 } }).complete(request);
    expect(server.log[0]?.raw).toBe(
      '{"max_tokens":300,"top_k":5,"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"Write a haiku about {{topic}}: \\"rain\\""}],"system":"Be brief.","temperature":0.2}',
    );
  });

  it('sends the same OpenAI bytes as before, for a chat and a reasoning model', async () => {
    await openai({ params: { top_p: 0.5 } }).complete(request);
    await openai({ model: 'gpt-5-mini' }).complete({ messages: request.messages });
    expect(server.log.map((e) => e.raw)).toEqual([
      '{"top_p":0.5,"model":"gpt-4o-mini","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Write a haiku about {{topic}}: \\"rain\\""}],"temperature":0.2,"max_tokens":300}',
      '{"model":"gpt-5-mini","messages":[{"role":"user","content":"Write a haiku about {{topic}}: \\"rain\\""}]}',
    ]);
  });
});

describe('anthropic: every shape natively', () => {
  it('sends system, the conversation with tool_use and merged tool_result turns, tools and output_config', async () => {
    await anthropic({ params: { output_config: { effort: 'low' } } }).complete(FULL);
    expect(lastBody()).toEqual({
      max_tokens: 500,
      output_config: { effort: 'low', format: { type: 'json_schema', schema: STRICT_SCHEMA } },
      model: 'claude-sonnet-4-5',
      system: SYSTEM,
      temperature: 0,
      messages: [
        { role: 'user', content: 'Customer tier: gold' },
        { role: 'user', content: 'Invoice INV-7 from ACME' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Looking it up.' },
            { type: 'tool_use', id: 'call_1', name: 'lookup', input: { invoice: 'INV-7' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '{"total": 120}' }],
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_2', name: 'lookup', input: { invoice: 'INV-8' } },
            { type: 'tool_use', id: 'call_3', name: 'vat', input: { country: 'DE', amount: 120 } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_2', content: 'not found' },
            { type: 'tool_result', tool_use_id: 'call_3', content: '22.8' },
            { type: 'text', text: 'Now the totals, please.' },
          ],
        },
      ],
      tools: [
        { name: 'lookup', description: 'Find an invoice by number', input_schema: LOOKUP.parameters },
        { name: 'vat', input_schema: VAT.parameters },
      ],
    });
  });

  it('ends on tool results when the case history does', async () => {
    await anthropic().complete({ messages: CONVERSATION.slice(0, 4) });
    const messages = (lastBody() as { messages: unknown[] }).messages;
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '{"total": 120}' }],
    });
    expect(lastBody()).not.toHaveProperty('tools');
    expect(lastBody()).not.toHaveProperty('output_config');
  });

  it('reads tool_use blocks as tool calls beside the joined text', async () => {
    reply = {
      text: 'Checking.',
      toolCalls: [
        { id: 'toolu_1', name: 'lookup', arguments: { invoice: 'INV-9' } },
        { id: 'toolu_2', name: 'vat', arguments: { country: 'FR' } },
      ],
    };
    const result = await anthropic().complete(FULL);
    expect(result.text).toBe('Checking.');
    expect(result.stopReason).toBe('tool_use');
    expect(result.toolCalls).toEqual([
      { id: 'toolu_1', name: 'lookup', arguments: { invoice: 'INV-9' } },
      { id: 'toolu_2', name: 'vat', arguments: { country: 'FR' } },
    ]);
    reply = { text: 'plain' };
    expect(await anthropic().complete(FULL)).not.toHaveProperty('toolCalls');
  });
});

describe('openai-compatible: every shape natively', () => {
  it('sends the system message, tool_calls, tool turns, tools and a strict response_format', async () => {
    await openai().complete(FULL);
    expect(lastBody()).toEqual({
      model: 'gpt-4o-mini',
      temperature: 0,
      max_tokens: 500,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: 'Customer tier: gold' },
        { role: 'user', content: 'Invoice INV-7 from ACME' },
        {
          role: 'assistant',
          content: 'Looking it up.',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'lookup', arguments: '{"invoice":"INV-7"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"total": 120}' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_2',
              type: 'function',
              function: { name: 'lookup', arguments: '{"invoice":"INV-8"}' },
            },
            {
              id: 'call_3',
              type: 'function',
              function: { name: 'vat', arguments: '{"country":"DE","amount":120}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_2', content: 'not found' },
        { role: 'tool', tool_call_id: 'call_3', content: '22.8' },
        { role: 'user', content: 'Now the totals, please.' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'lookup',
            description: 'Find an invoice by number',
            parameters: LOOKUP.parameters,
          },
        },
        { type: 'function', function: { name: 'vat', parameters: VAT.parameters } },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'invoice_schema', schema: STRICT_SCHEMA, strict: true },
      },
    });
  });

  it('gives a reasoning model the system prompt as a developer message', async () => {
    await openai({ model: 'o4-mini' }).complete({ system: SYSTEM, messages: CONVERSATION.slice(0, 1) });
    expect((lastBody() as { messages: unknown[] }).messages).toEqual([
      { role: 'developer', content: SYSTEM },
      { role: 'user', content: 'Customer tier: gold' },
    ]);
  });

  it('asks for strict output only when the schema is in the strict subset', async () => {
    const open = { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] };
    const nestedOpen = {
      ...STRICT_SCHEMA,
      properties: { ...STRICT_SCHEMA.properties, party: { type: 'object', properties: {} } },
      required: ['total', 'lines', 'party'],
    };
    const notAllRequired = { ...STRICT_SCHEMA, required: ['total'] };
    for (const schema of [open, nestedOpen, notAllRequired]) {
      await openai().complete({ messages: CONVERSATION.slice(0, 1), output: { name: 'out', schema } });
      expect(lastBody()).toMatchObject({
        response_format: { type: 'json_schema', json_schema: { name: 'out', schema, strict: false } },
      });
    }
  });

  it('reads tool_calls with their arguments parsed, an unparsable one kept raw', async () => {
    reply = {
      toolCalls: [
        { id: 'call_a', name: 'lookup', arguments: { invoice: 'INV-9' } },
        { id: 'call_b', name: 'vat', arguments: '{"country": "FR", "amou' },
      ],
    };
    const result = await openai().complete(FULL);
    expect(result).toMatchObject({
      text: '',
      stopReason: 'tool_calls',
      toolCalls: [
        { id: 'call_a', name: 'lookup', arguments: { invoice: 'INV-9' } },
        { id: 'call_b', name: 'vat', arguments: { _raw: '{"country": "FR", "amou' } },
      ],
    });
    reply = { text: 'plain' };
    expect(await openai().complete(FULL)).not.toHaveProperty('toolCalls');
  });
});

describe('the fake server reads every shape back', () => {
  it.each([
    ['anthropic', anthropic],
    ['openai', openai],
  ] as const)('%s: the same system, turns, tools and schema the adapter was given', async (api, make) => {
    let seen: unknown;
    server.configure({
      respond: (req) => {
        seen = { system: req.system, messages: req.messages, tools: req.tools, output: req.output?.schema };
        return 'ok';
      },
    });
    try {
      await make().complete(FULL);
    } finally {
      server.configure({ respond: () => reply });
    }
    expect(seen).toEqual({
      system: SYSTEM,
      messages: CONVERSATION,
      tools: [LOOKUP, VAT],
      output: STRICT_SCHEMA,
    });
    expect(server.log.at(-1)?.api).toBe(api);
  });
});
