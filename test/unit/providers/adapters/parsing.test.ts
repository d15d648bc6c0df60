import { describe, expect, it } from 'vitest';
import { buildAnthropicBody, parseAnthropicResponse } from '../../../../src/providers/adapters/anthropic.js';
import {
  buildClaudeArgs,
  paramsToFlags,
  parseClaudeResult,
} from '../../../../src/providers/adapters/claude-cli.js';
import { buildCodexArgs, parseCodexEvents } from '../../../../src/providers/adapters/codex-cli.js';
import { substitutePromptFile } from '../../../../src/providers/adapters/command.js';
import { buildOpenAiBody, parseOpenAiResponse } from '../../../../src/providers/adapters/openai.js';
import { ProviderError } from '../../../../src/providers/types.js';

const messages = [{ role: 'user' as const, content: 'hi' }];

describe('anthropic request and response', () => {
  it('defaults max_tokens to 1024 and lets params through without overriding explicit fields', () => {
    const body = buildAnthropicBody(
      { provider: 'anthropic', model: 'm', params: { top_k: 3, model: 'evil', max_tokens: 99 } },
      { messages },
    );
    expect(body).toEqual({
      model: 'm',
      max_tokens: 99,
      top_k: 3,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(buildAnthropicBody({ provider: 'anthropic', model: 'm' }, { messages })['max_tokens']).toBe(1024);
  });

  it('marks a stable prefix for the prompt cache: the system prompt, then the first message up to its lead', () => {
    const entry = { provider: 'anthropic' as const, model: 'm' };
    const mark = { type: 'ephemeral' };
    const body = buildAnthropicBody(entry, {
      system: 'rules',
      messages: [
        { role: 'user', content: 'RUBRIC\nOUTPUT 1' },
        { role: 'assistant', content: 'ok' },
      ],
      cacheable: { lead: 7 },
    });
    expect(body['system']).toEqual([{ type: 'text', text: 'rules', cache_control: mark }]);
    expect(body['messages']).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'RUBRIC\n', cache_control: mark },
          { type: 'text', text: 'OUTPUT 1' },
        ],
      },
      { role: 'assistant', content: 'ok' },
    ]);
    // A lead covering the whole message marks it whole; lead 0 leaves it a plain string.
    const whole = buildAnthropicBody(entry, { messages, cacheable: { lead: 99 } });
    expect(whole['messages']).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: mark }] },
    ]);
    expect(buildAnthropicBody(entry, { messages, cacheable: { lead: 0 } })['messages']).toEqual(messages);
    // Without `cacheable` nothing changes: the request is sent as it always was.
    expect(buildAnthropicBody(entry, { system: 'rules', messages })['system']).toBe('rules');
  });

  it('joins text blocks, counts cache tokens as input (and apart) and rejects shapeless bodies', () => {
    const parsed = parseAnthropicResponse(
      {
        content: [
          { type: 'thinking', thinking: 'hmm' },
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        stop_reason: 'end_turn',
        usage: { input_tokens: 5, cache_read_input_tokens: 10, output_tokens: 2 },
      },
      'L',
    );
    expect(parsed).toEqual({
      text: 'ab',
      usage: { inputTokens: 15, outputTokens: 2, cacheReadTokens: 10 },
      stopReason: 'end_turn',
    });
    expect(() => parseAnthropicResponse({ id: 'x' }, 'L')).toThrow(ProviderError);
  });
});

describe('openai request and response', () => {
  it('puts the system prompt first and chooses the token-limit key', () => {
    expect(
      buildOpenAiBody({ provider: 'openai', model: 'gpt-4o', system: 's', max_tokens: 5 }, { messages }),
    ).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'hi' },
      ],
      max_tokens: 5,
    });
    expect(
      buildOpenAiBody({ provider: 'openai', model: 'o4-mini' }, { messages, maxTokens: 5 }),
    ).toMatchObject({
      max_completion_tokens: 5,
    });
    expect(
      buildOpenAiBody(
        { provider: 'openai', model: 'x', params: { max_completion_tokens: 1 } },
        { messages, maxTokens: 5 },
      ),
    ).toMatchObject({ max_completion_tokens: 5 });
  });

  it('reads content, falls back to a refusal, and tolerates missing usage', () => {
    expect(
      parseOpenAiResponse({ choices: [{ message: { content: 'x' }, finish_reason: 'stop' }] }, 'L'),
    ).toEqual({
      text: 'x',
      usage: { inputTokens: 0, outputTokens: 0 },
      stopReason: 'stop',
    });
    const cached = parseOpenAiResponse(
      {
        choices: [{ message: { content: 'y' } }],
        usage: { prompt_tokens: 2000, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 1152 } },
      },
      'L',
    );
    expect(cached.usage).toEqual({ inputTokens: 2000, outputTokens: 3, cacheReadTokens: 1152 });
    expect(parseOpenAiResponse({ choices: [{ message: { content: null, refusal: 'no' } }] }, 'L').text).toBe(
      'no',
    );
    expect(() => parseOpenAiResponse({ error: { message: 'x' } }, 'L')).toThrow(/error body/);
  });
});

describe('claude-cli arguments and result', () => {
  it('builds print-mode flags with tools, settings and persistence off', () => {
    const args = buildClaudeArgs(
      { provider: 'claude-cli', model: 'haiku', params: { effort: 'low', verbose: true } },
      'S',
    );
    expect(args).toEqual([
      '-p',
      '--output-format',
      'json',
      '--max-turns',
      '1',
      '--tools',
      '',
      '--strict-mcp-config',
      '--setting-sources',
      '',
      '--no-session-persistence',
      '--model',
      'haiku',
      '--system-prompt',
      'S',
      '--effort',
      'low',
      '--verbose',
    ]);
    expect(paramsToFlags({ max_budget_usd: 1, skip: false })).toEqual(['--max-budget-usd', '1']);
  });

  it('parses success and error results', () => {
    const ok = parseClaudeResult(
      'warning: something\n{"type":"result","subtype":"success","is_error":false,"result":"hey","total_cost_usd":0.5,"usage":{"input_tokens":1,"output_tokens":2}}\n',
      { provider: 'claude-cli' },
      'L',
    );
    expect(ok).toEqual({ text: 'hey', usage: { inputTokens: 1, outputTokens: 2 }, costUsd: 0.5 });
    const maxTurns = parseClaudeResult(
      '{"type":"result","subtype":"error_max_turns","is_error":true}',
      { provider: 'claude-cli' },
      'L',
    );
    expect(maxTurns).toBeInstanceOf(ProviderError);
    expect((maxTurns as ProviderError).kind).toBe('process');
  });
});

describe('codex-cli arguments and events', () => {
  it('builds exec flags and reads the last agent message', () => {
    expect(buildCodexArgs({ provider: 'codex-cli', model: 'gpt-5', params: { n: 2 } }, '/t/i.md')).toEqual([
      'exec',
      '--json',
      '--ephemeral',
      '--skip-git-repo-check',
      '--sandbox',
      'read-only',
      '--color',
      'never',
      '-m',
      'gpt-5',
      '-c',
      'model_instructions_file="/t/i.md"',
      '-c',
      'features.shell_tool=false',
      '-c',
      'web_search="disabled"',
      '-c',
      'features.multi_agent=false',
      '-c',
      'features.goals=false',
      '-c',
      'features.view_image=false',
      '-c',
      'skills.include_instructions=false',
      '-c',
      'tools.experimental_request_user_input.enabled=false',
      '-c',
      'include_permissions_instructions=false',
      '-c',
      'include_environment_context=false',
      '-c',
      'features.plugins=false',
      '-c',
      'analytics.enabled=false',
      '-c',
      'model_provider="autoresearch"',
      '-c',
      'model_providers.autoresearch.name="OpenAI"',
      '-c',
      'model_providers.autoresearch.wire_api="responses"',
      '-c',
      'model_providers.autoresearch.requires_openai_auth=true',
      '-c',
      'model_providers.autoresearch.request_max_retries=0',
      '-c',
      'model_providers.autoresearch.stream_max_retries=0',
      '-c',
      'n=2',
      '-',
    ]);
    const events = [
      { type: 'item.completed', item: { type: 'agent_message', text: 'first' } },
      { type: 'item.completed', item: { type: 'agent_message', text: 'final' } },
      { type: 'turn.completed', usage: { input_tokens: 3, cached_input_tokens: 1, output_tokens: 4 } },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    expect(parseCodexEvents(events, { provider: 'codex-cli', model: 'gpt-5' }, 'L')).toMatchObject({
      text: 'final',
      usage: { inputTokens: 3, outputTokens: 4, cacheReadTokens: 1 },
    });
  });
});

describe('command prompt file', () => {
  it('replaces {prompt_file} inside arguments, or appends the path', () => {
    expect(substitutePromptFile(['--in={prompt_file}', 'x'], '/t/p.txt')).toEqual(['--in=/t/p.txt', 'x']);
    expect(substitutePromptFile(['x'], '/t/p.txt')).toEqual(['x', '/t/p.txt']);
  });
});
