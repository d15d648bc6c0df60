// Prompt shapes (docs/design/prompt-shapes.md) through the providers that take one text: the
// transcript the CLIs get for a conversation, their structured-output flags, and the command
// provider's JSON request and reply.
import { describe, expect, it } from 'vitest';
import { buildClaudeArgs, parseClaudeResult } from '../../../../src/providers/adapters/claude-cli.js';
import { buildCodexArgs } from '../../../../src/providers/adapters/codex-cli.js';
import {
  buildCommandRequest,
  needsJsonRequest,
  parseCommandReply,
} from '../../../../src/providers/adapters/command-wire.js';
import { refuseTools, renderConversation } from '../../../../src/providers/process/render-prompt.js';
import {
  type ChatMessage,
  type CompletionRequest,
  ProviderError,
  type ToolDefinition,
} from '../../../../src/providers/types.js';

const CONVERSATION: ChatMessage[] = [
  { role: 'user', content: 'Where is order A17?' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: { order_id: 'A17' } }],
  },
  { role: 'tool', toolCallId: 'call_1', content: '{"status":"shipped"}' },
  { role: 'assistant', content: 'It shipped yesterday.' },
  { role: 'user', content: 'When will it arrive?' },
];
const TOOL: ToolDefinition = {
  name: 'lookup_order',
  description: 'Find an order by id',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};
const OUTPUT = { name: 'ticket', schema: { type: 'object', properties: { category: { type: 'string' } } } };
const user = (content: string): CompletionRequest => ({ messages: [{ role: 'user', content }] });

function thrown(run: () => unknown): ProviderError {
  let error: unknown;
  try {
    run();
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('the transcript of a conversation', () => {
  it('renders user, assistant, tool call and tool result turns', () => {
    expect(renderConversation(CONVERSATION)).toBe(
      [
        'User:\nWhere is order A17?',
        'Assistant:\nTool call call_1: lookup_order {"order_id":"A17"}',
        'Tool result (call_1):\n{"status":"shipped"}',
        'Assistant:\nIt shipped yesterday.',
        'User:\nWhen will it arrive?',
      ].join('\n\n'),
    );
  });

  it('keeps text before the tool calls of a turn, and one user message exactly as it is', () => {
    const turn: ChatMessage = {
      role: 'assistant',
      content: 'Let me check.',
      toolCalls: [
        { id: 'a', name: 'x', arguments: {} },
        { id: 'b', name: 'y', arguments: { n: 1 } },
      ],
    };
    expect(renderConversation([turn])).toBe(
      'Assistant:\nLet me check.\nTool call a: x {}\nTool call b: y {"n":1}',
    );
    expect(renderConversation([{ role: 'user', content: 'User:\njust this\n' }])).toBe('User:\njust this\n');
  });

  it('refuses tools with a message naming the providers that take them', () => {
    expect(() => refuseTools(user('x'), 'L')).not.toThrow();
    expect(() => refuseTools({ ...user('x'), tools: [] }, 'L')).not.toThrow();
    const error = thrown(() => refuseTools({ ...user('x'), tools: [TOOL] }, 'Codex CLI (m)'));
    expect(error.kind).toBe('bad_request');
    expect(error.message).toMatch(/^Codex CLI \(m\) cannot offer tools.*anthropic, openai/);
  });
});

describe('structured output through the CLIs', () => {
  it('claude-cli passes the schema as --json-schema and reads structured_output', () => {
    const args = buildClaudeArgs({ provider: 'claude-cli' }, 'S', undefined, OUTPUT);
    expect(args[args.indexOf('--json-schema') + 1]).toBe(JSON.stringify(OUTPUT.schema));
    expect(buildClaudeArgs({ provider: 'claude-cli' }, 'S')).not.toContain('--json-schema');
    const stdout = JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Here it is.',
      structured_output: { category: 'billing' },
    });
    const parsed = parseClaudeResult(stdout, { provider: 'claude-cli' }, 'L');
    expect(parsed).not.toBeInstanceOf(ProviderError);
    expect((parsed as { text: string }).text).toBe('{"category":"billing"}');
  });

  it('codex-cli passes the schema file as --output-schema before the stdin marker', () => {
    const args = buildCodexArgs({ provider: 'codex-cli' }, '/tmp/i.md', undefined, '/tmp/s.json');
    expect(args[args.indexOf('--output-schema') + 1]).toBe('/tmp/s.json');
    expect(args.at(-1)).toBe('-');
    expect(buildCodexArgs({ provider: 'codex-cli' }, '/tmp/i.md')).not.toContain('--output-schema');
  });
});

describe('the command provider request', () => {
  it('stays plain text for one user message, a system prompt or a correction exchange', () => {
    expect(needsJsonRequest(user('x'))).toBe(false);
    expect(needsJsonRequest({ ...user('x'), system: 'S' })).toBe(false);
    const correction: CompletionRequest = {
      system: 'S',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
      ],
    };
    expect(needsJsonRequest(correction)).toBe(false);
    expect(needsJsonRequest({ ...user('x'), shaped: true })).toBe(false);
  });

  it('is JSON for a prompt of parts with more than one user message, output, tools or tool turns', () => {
    expect(needsJsonRequest({ ...user('x'), system: 'S', shaped: true })).toBe(true);
    const twoUserMessages: ChatMessage[] = [
      { role: 'user', content: 'Tier: gold' },
      { role: 'user', content: 'My invoice is wrong' },
    ];
    expect(needsJsonRequest({ messages: twoUserMessages, shaped: true })).toBe(true);
    expect(needsJsonRequest({ ...user('x'), output: OUTPUT })).toBe(true);
    expect(needsJsonRequest({ ...user('x'), tools: [TOOL] })).toBe(true);
    expect(needsJsonRequest({ messages: CONVERSATION })).toBe(true);
  });

  it('writes every field in snake_case, null when absent', () => {
    const request: CompletionRequest = { messages: CONVERSATION, output: OUTPUT, tools: [TOOL] };
    expect(JSON.parse(buildCommandRequest(request, 'Be brief.'))).toEqual({
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Where is order A17?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_1', name: 'lookup_order', arguments: { order_id: 'A17' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"status":"shipped"}' },
        { role: 'assistant', content: 'It shipped yesterday.' },
        { role: 'user', content: 'When will it arrive?' },
      ],
      output: { name: 'ticket', schema: OUTPUT.schema },
      tools: [TOOL],
    });
    expect(buildCommandRequest({ ...user('hi'), shaped: true }, undefined)).toBe(
      '{"system":null,"messages":[{"role":"user","content":"hi"}],"output":null,"tools":null}',
    );
  });
});

describe('the command provider reply to a request with tools', () => {
  it('reads {"text", "tool_calls"}, numbering calls without an id', () => {
    const stdout = JSON.stringify({
      text: 'Checking.',
      tool_calls: [
        { name: 'lookup_order', arguments: { order_id: 'A17' } },
        { id: 'x9', name: 'b', arguments: {} },
      ],
    });
    expect(parseCommandReply(stdout, 'L')).toEqual({
      text: 'Checking.',
      toolCalls: [
        { id: 'call_1', name: 'lookup_order', arguments: { order_id: 'A17' } },
        { id: 'x9', name: 'b', arguments: {} },
      ],
    });
    expect(parseCommandReply('{"tool_calls":[{"name":"b","arguments":{}}]}', 'L').text).toBe('');
    expect(parseCommandReply('{"text":"only words"}', 'L')).toEqual({ text: 'only words' });
  });

  it('takes any other stdout as the text, as before', () => {
    for (const stdout of ['plain answer\n', '{"category":"billing"}', '[1,2]', '{}', 'null'])
      expect(parseCommandReply(stdout, 'L')).toEqual({ text: stdout });
  });

  it.each([
    ['{"text":5}', 'reply "text" must be a string'],
    ['{"tool_calls":{}}', 'reply "tool_calls" must be a list'],
    ['{"tool_calls":[{"arguments":{}}]}', 'reply tool_calls[0] needs a "name" string'],
    ['{"tool_calls":[{"name":"a","arguments":"{}"}]}', 'reply tool_calls[0] needs an "arguments" object'],
    [
      '{"tool_calls":[{"id":3,"name":"a","arguments":{}}]}',
      'reply tool_calls[0] has an "id" that is not a string',
    ],
  ])('fails a bad reply %s as malformed', (stdout, message) => {
    const error = thrown(() => parseCommandReply(stdout, 'command `x`'));
    expect(error.kind).toBe('malformed');
    expect(error.message).toBe(`command \`x\`: ${message}`);
  });
});
