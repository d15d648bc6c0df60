import { describe, expect, it } from 'vitest';
import { formatWireFailure, formatWireReply, parseWireRequest } from '../../../src/sandbox/proxy-wire.js';
import { classifyHttpError } from '../../../src/providers/http/classify-http-error.js';
import { ProviderError } from '../../../src/providers/types.js';

const result = {
  text: 'hi',
  usage: { inputTokens: 3, outputTokens: 1 },
  costUsd: 0,
  latencyMs: 1,
  stopReason: 'max_tokens',
};

describe('parseWireRequest', () => {
  it('takes the cache_control marks of an Anthropic request as its stable prefix', () => {
    const mark = { type: 'ephemeral' };
    const parsed = parseWireRequest('anthropic', {
      system: [{ type: 'text', text: 'be fair', cache_control: mark }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'rubric ', cache_control: mark },
            { type: 'text', text: 'output' },
          ],
        },
      ],
    });
    expect(parsed).toEqual({
      ok: true,
      request: {
        system: 'be fair',
        messages: [{ role: 'user', content: 'rubric output' }],
        cacheable: { lead: 7 },
      },
    });
    const systemOnly = parseWireRequest('anthropic', {
      system: [{ type: 'text', text: 'be fair', cache_control: mark }],
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(systemOnly.ok && systemOnly.request.cacheable).toEqual({ lead: 0 });
    const unmarked = parseWireRequest('anthropic', { messages: [{ role: 'user', content: 'x' }] });
    expect(unmarked.ok && unmarked.request.cacheable).toBeUndefined();
  });

  it('reads an Anthropic request, text blocks included', () => {
    expect(
      parseWireRequest('anthropic', {
        model: 'ignored',
        system: [{ type: 'text', text: 'be fair' }],
        max_tokens: 300,
        temperature: 0,
        top_p: 0.5,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
        ],
      }),
    ).toEqual({
      ok: true,
      request: {
        system: 'be fair',
        messages: [{ role: 'user', content: 'ab' }],
        temperature: 0,
        maxTokens: 300,
      },
    });
  });

  it('lifts OpenAI system messages and reads max_completion_tokens', () => {
    expect(
      parseWireRequest('openai', {
        messages: [
          { role: 'system', content: 's' },
          { role: 'user', content: 'q' },
        ],
        max_completion_tokens: 50,
      }),
    ).toEqual({
      ok: true,
      request: { system: 's', messages: [{ role: 'user', content: 'q' }], maxTokens: 50 },
    });
  });

  it.each([
    ['streaming', { stream: true, messages: [{ role: 'user', content: 'x' }] }],
    ['no messages', { messages: [] }],
    ['an image block', { messages: [{ role: 'user', content: [{ type: 'image', source: {} }] }] }],
    ['a tool role', { messages: [{ role: 'tool', content: 'x' }] }],
    ['not an object', [1, 2]],
  ])('refuses %s', (_, body) => {
    expect(parseWireRequest('anthropic', body).ok).toBe(false);
  });
});

describe('formatWireReply', () => {
  it('answers in each API’s shape with its stop reason names', () => {
    expect(formatWireReply('anthropic', result, 'm', '1').body).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'hi' }],
      stop_reason: 'max_tokens',
      usage: { input_tokens: 3, output_tokens: 1 },
    });
    expect(formatWireReply('openai', result, 'm', '1').body).toMatchObject({
      choices: [{ message: { role: 'assistant', content: 'hi' }, finish_reason: 'length' }],
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    });
  });
});

describe('formatWireFailure', () => {
  const context = { label: 'proxy', keyEnv: 'ANTHROPIC_API_KEY', keySent: true, secrets: [] };
  it.each([
    ['auth', 401],
    ['credit', 0],
    ['rate_limit', 429],
    ['bad_request', 400],
    ['server', 502],
    ['timeout', 504],
  ] as const)('maps %s so the judge’s adapter classifies it the same way', (kind, status) => {
    for (const api of ['anthropic', 'openai'] as const) {
      const reply = formatWireFailure(api, new ProviderError(kind, 'upstream said no'));
      if (status !== 0) expect(reply.status).toBe(status);
      const back = classifyHttpError(reply.status, JSON.stringify(reply.body), new Headers(), context);
      expect(back.kind === kind || (kind === 'timeout' && back.kind === 'server')).toBe(true);
    }
  });

  it('hides anything that is not a provider error', () => {
    expect(formatWireFailure('openai', new Error('stack details')).body).toEqual({
      error: {
        message: 'the model call failed inside the runner',
        type: 'server_error',
        code: null,
        param: null,
      },
    });
  });
});
