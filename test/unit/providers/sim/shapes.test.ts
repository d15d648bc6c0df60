// The simulated generator with prompt shapes (docs/design/prompt-shapes.md): system prompt
// instructions, structured output that validates against its schema, tool calls when a tool fits,
// text after a tool result — and a plain prompt's output unchanged byte for byte (the demo's
// numbers rest on it).
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { compileSchema } from '../../../../src/checks/json-schema.js';
import { createSimProvider } from '../../../../src/providers/sim/sim-provider.js';
import { fittingTool } from '../../../../src/providers/sim/roles/generator-turn.js';
import { type SimRequest, simulateCompletion } from '../../../../src/providers/sim/simulate.js';
import type { ChatMessage, StructuredOutput, ToolDefinition } from '../../../../src/providers/types.js';

const EMAIL =
  'Write a cold email about usage-based billing for a CFO at a 200-person logistics company.\nKeep it under 120 words and end with a question.';
const TICKET = 'Ticket: I was charged twice for my subscription, please fix this urgently!';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const user = (content: string): ChatMessage[] => [{ role: 'user', content }];

const TOOLS: ToolDefinition[] = [
  {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  {
    name: 'lookupOrder',
    description: 'Find a customer order and its delivery status',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' }, include_items: { type: 'boolean' } },
      required: ['order_id', 'include_items'],
      additionalProperties: false,
    },
  },
];

function validates(schema: Record<string, unknown>, text: string): void {
  const validator = compileSchema(schema);
  if (validator instanceof Error) throw validator;
  expect(validator(JSON.parse(text), 1000)).toEqual({ valid: true });
}

describe('a single user message', () => {
  // Digests of simulateCompletion's text before prompt shapes existed (commit e26f2e9).
  test.each([
    [
      { messages: user(EMAIL), model: 'sim-1', temperature: 0.7, sampleIndex: 2 },
      '7681d75ebf16522390bf516bea2effbc093a7245d14d45a93fc1de616a54006a',
      { inputTokens: 35, outputTokens: 139 },
    ],
    [
      { system: 'Be warm. Always mention the free trial.', messages: user(EMAIL) },
      '19c39d01696166718269d7e2b6549920ecb8a2b19ece3ca85813ac7324c66829',
      { inputTokens: 45, outputTokens: 300 },
    ],
    [
      {
        messages: user(
          'Classify this ticket. Reply in JSON with keys `category` and `priority`.\nTicket: I was charged twice, urgent!',
        ),
      },
      '991866df418079c69ff577475962ccdc031fd59ea9e4c5f4c8fa906d4665690e',
      { inputTokens: 28, outputTokens: 13 },
    ],
  ] as [SimRequest, string, object][])('gives the same output as before (%#)', (request, digest, usage) => {
    const reply = simulateCompletion(request);
    expect(sha(reply.text)).toBe(digest);
    expect(reply.usage).toEqual(usage);
    expect(reply.toolCalls).toBeUndefined();
  });
});

describe('the system prompt', () => {
  test("its instructions are followed like the user message's", () => {
    const topic = 'Write a cold email about usage-based billing for a CFO.';
    const rules = "Start with 'Subject:'. You must keep it under 80 words.";
    const count = (request: (i: number) => SimRequest) =>
      Array.from({ length: 20 }, (_, i) => simulateCompletion(request(i)).text).filter(
        (text) => text.startsWith('Subject:') && text.split(/\s+/).length <= 80,
      ).length;
    const fromSystem = count((i) => ({ system: rules, messages: user(topic), sampleIndex: i }));
    const fromUser = count((i) => ({ messages: user(`${topic}\n${rules}`), sampleIndex: i }));
    const without = count((i) => ({ messages: user(topic), sampleIndex: i }));
    expect(fromSystem).toBeGreaterThanOrEqual(15);
    expect(fromUser).toBeGreaterThanOrEqual(15);
    expect(without).toBe(0);
  });

  test('instructions in a template message count with the case message', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Reply in JSON with keys `category` and `priority`. You must always do so.' },
      { role: 'user', content: TICKET },
    ];
    const replies = Array.from(
      { length: 10 },
      (_, i) => simulateCompletion({ messages, sampleIndex: i }).text,
    );
    const parsed = replies.flatMap((text) => {
      try {
        return [JSON.parse(text) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
    expect(parsed.length).toBeGreaterThanOrEqual(8);
    for (const answer of parsed) expect(answer).toEqual({ category: 'billing', priority: 'high' });
  });
});

describe('structured output', () => {
  const ticket: StructuredOutput = {
    name: 'ticket',
    schema: {
      type: 'object',
      properties: {
        category: { type: 'string', enum: ['billing', 'technical', 'account', 'other'] },
        priority: { enum: ['P1', 'P2', 'P3'] },
        summary: { type: 'string', maxLength: 40 },
        confidence: { type: 'number', minimum: 0, maximum: 1 },
        escalate: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 3 },
        customer: { $ref: '#/$defs/customer' },
        note: { type: ['string', 'null'] },
      },
      required: ['category', 'priority', 'summary', 'confidence', 'escalate', 'tags', 'customer'],
      additionalProperties: false,
      $defs: {
        customer: {
          type: 'object',
          properties: { count: { type: 'integer', minimum: 1, maximum: 5 }, language: { type: 'string' } },
          required: ['count', 'language'],
        },
      },
    },
  };

  test('answers an object that validates against the schema, its values read from the case', () => {
    for (let sampleIndex = 0; sampleIndex < 5; sampleIndex++) {
      const { text, toolCalls } = simulateCompletion({ messages: user(TICKET), output: ticket, sampleIndex });
      validates(ticket.schema, text);
      expect(toolCalls).toBeUndefined();
      const answer = JSON.parse(text) as Record<string, unknown>;
      expect(answer).toMatchObject({ category: 'billing', priority: 'P1', escalate: true });
      expect(answer).not.toHaveProperty('note');
    }
  });

  test('fills every property when none is required, and is deterministic', () => {
    const schema = {
      type: 'object',
      properties: { sentiment: { type: 'string' }, reply: { type: 'string' } },
    };
    const request: SimRequest = { messages: user(TICKET), output: { name: 's', schema } };
    const { text } = simulateCompletion(request);
    validates(schema, text);
    expect(Object.keys(JSON.parse(text))).toEqual(['sentiment', 'reply']);
    expect(simulateCompletion(request)).toEqual(simulateCompletion(request));
  });
});

describe('tools', () => {
  test('a tool fits when its name or two words of its description appear in the message', () => {
    expect(fittingTool(TOOLS, 'What is the weather in Lyon?')?.name).toBe('get_weather');
    expect(fittingTool(TOOLS, 'Where is my order A-1734?')?.name).toBe('lookupOrder');
    expect(fittingTool(TOOLS, 'What is the delivery status for this customer?')?.name).toBe('lookupOrder');
    expect(fittingTool(TOOLS, 'Write a haiku about autumn.')).toBeUndefined();
  });

  test('calls the fitting tool with arguments matching its parameters', () => {
    const reply = simulateCompletion({
      messages: user('Where is my order A-1734? It is late.'),
      tools: TOOLS,
    });
    expect(reply.text).toBe('');
    expect(reply.toolCalls).toHaveLength(1);
    const [call] = reply.toolCalls ?? [];
    expect(call?.name).toBe('lookupOrder');
    expect(call?.id).toMatch(/^call_[0-9a-f]{6}$/);
    validates(TOOLS[1]?.parameters ?? {}, JSON.stringify(call?.arguments));
  });

  test('answers in text when no tool fits, and after the tool result', () => {
    const plain = simulateCompletion({ messages: user('Write a haiku about autumn.'), tools: TOOLS });
    expect(plain.toolCalls).toBeUndefined();
    expect(plain.text).not.toBe('');
    const first = simulateCompletion({ messages: user('Where is my order A-1734?'), tools: TOOLS });
    const [call] = first.toolCalls ?? [];
    if (call === undefined) throw new Error('expected a tool call');
    const conversation: ChatMessage[] = [
      ...user('Where is my order A-1734?'),
      { role: 'assistant', content: '', toolCalls: [call] },
      { role: 'tool', toolCallId: call.id, content: 'Status: shipped on Monday with DHL' },
    ];
    const after = simulateCompletion({ messages: conversation, tools: TOOLS });
    expect(after.toolCalls).toBeUndefined();
    expect(after.text.length).toBeGreaterThan(20);
    expect(after.text.split('\n')[0]).toBe('Here is what I found: Status: shipped on Monday with DHL');
  });

  test('the sim provider returns the calls with a tool_use stop reason', async () => {
    const provider = createSimProvider({ provider: 'sim' });
    const result = await provider.complete({ messages: user('Weather in Oslo today?'), tools: TOOLS });
    expect(result.toolCalls?.[0]?.name).toBe('get_weather');
    expect(result.stopReason).toBe('tool_use');
    const plain = await provider.complete({ messages: user(EMAIL) });
    expect(plain.toolCalls).toBeUndefined();
    expect(plain.stopReason).toBe('end_turn');
  });
});
