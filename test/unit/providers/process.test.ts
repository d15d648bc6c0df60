import { describe, expect, it } from 'vitest';
import { classifyCliFailure } from '../../../src/providers/process/classify-cli-failure.js';
import { prependSystem, renderConversation } from '../../../src/providers/process/render-prompt.js';
import { tailOf } from '../../../src/providers/process/call-process.js';
import { redactSecrets } from '../../../src/providers/redact.js';

describe('renderConversation', () => {
  it('passes one user message as is and renders longer conversations as a transcript', () => {
    expect(renderConversation([{ role: 'user', content: 'just this' }])).toBe('just this');
    expect(
      renderConversation([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
      ]),
    ).toBe('User:\na\n\nAssistant:\nb\n\nUser:\nc');
    expect(prependSystem('S', 'T')).toBe('S\n\nT');
    expect(prependSystem('', 'T')).toBe('T');
  });
});

describe('classifyCliFailure', () => {
  it.each([
    ['Credit balance is too low', 'credit'],
    ["You've hit your usage limit. Try again later.", 'credit'],
    ['Claude AI usage limit reached|1735000000', 'credit'],
    ['Invalid API key · Please run /login', 'auth'],
    ['API Error: 401 {"type":"error"}', 'auth'],
    ['API Error: 429 rate_limit_error', 'rate_limit'],
    ['API Error: 529 Overloaded', 'server'],
    ['stream disconnected before completion', 'server'],
    // Codex 0.171's words for a 5xx, and for a model provider whose key variable is unset.
    ['We’re currently experiencing high demand, which may cause temporary errors.', 'server'],
    ['Missing environment variable: `AZURE_OPENAI_API_KEY`.', 'auth'],
    ['something odd happened', 'process'],
  ])('%s → %s', (text, kind) => {
    expect(classifyCliFailure(text)).toBe(kind);
  });
});

describe('redaction', () => {
  it('removes known secrets and key-shaped strings, and keeps the last stderr lines', () => {
    expect(redactSecrets('key=abcdefgh12345 and sk-proj-abcdefghijk', ['abcdefgh12345'])).toBe(
      'key=[redacted] and [redacted]',
    );
    expect(tailOf('1\n2\n\n3\n4\n5\n6 secretsecret\n', { OPENAI_API_KEY: 'secretsecret' })).toBe(
      '2 | 3 | 4 | 5 | 6 [redacted]',
    );
  });
});
