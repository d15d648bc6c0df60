import { describe, expect, it } from 'vitest';
import { classifyHttpError, readErrorDetails } from '../../../src/providers/http/classify-http-error.js';
import { parseRetryAfter } from '../../../src/providers/http/retry-after.js';

const ctx = {
  label: 'Anthropic (m)',
  keyEnv: 'ANTHROPIC_API_KEY',
  keySent: true,
  secrets: ['sk-ant-secret-value-123'],
};
const h = (init: Record<string, string> = {}) => new Headers(init);

describe('parseRetryAfter', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(parseRetryAfter(h({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfter(h({ 'retry-after': '2' }))).toBe(2000);
    expect(
      parseRetryAfter(h({ 'retry-after': 'Wed, 21 Oct 2015 07:28:10 GMT' }), Date.UTC(2015, 9, 21, 7, 28, 0)),
    ).toBe(10_000);
    expect(parseRetryAfter(h({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(h())).toBeUndefined();
  });
});

describe('classifyHttpError', () => {
  it('maps statuses to kinds', () => {
    const kind = (status: number, body = '{}') => classifyHttpError(status, body, h(), ctx).kind;
    expect(kind(400)).toBe('bad_request');
    expect(kind(404)).toBe('bad_request');
    expect(kind(422)).toBe('bad_request');
    expect(kind(401)).toBe('auth');
    expect(kind(403)).toBe('auth');
    expect(kind(408)).toBe('server');
    expect(kind(409)).toBe('server');
    expect(kind(429)).toBe('rate_limit');
    expect(kind(500)).toBe('server');
    expect(kind(529)).toBe('server');
    expect(kind(402)).toBe('credit');
  });

  it('recognises credit and quota failures of both APIs', () => {
    const anthropic = JSON.stringify({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'Your credit balance is too low to access the Anthropic API.',
      },
    });
    expect(classifyHttpError(400, anthropic, h(), ctx).kind).toBe('credit');
    const openai = JSON.stringify({
      error: {
        message: 'You exceeded your current quota',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
    });
    const error = classifyHttpError(429, openai, h({ 'retry-after': '1' }), ctx);
    expect(error.kind).toBe('credit');
    expect(error.stopsRun).toBe(true);
  });

  it('names the key variable on 401, never the key', () => {
    const body = JSON.stringify({
      error: { message: 'Incorrect API key provided: sk-ant-secret-value-123', type: 'x' },
    });
    const error = classifyHttpError(401, body, h(), ctx);
    expect(error.message).toContain('ANTHROPIC_API_KEY was rejected (401)');
    expect(error.message).not.toContain('sk-ant-secret-value-123');
    const unsent = classifyHttpError(401, '{}', h(), { ...ctx, keySent: false, keyEnv: 'OPENAI_API_KEY' });
    expect(unsent.message).toContain('none was sent; set OPENAI_API_KEY');
  });

  it('carries Retry-After and the server message', () => {
    const error = classifyHttpError(
      429,
      JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }),
      h({ 'retry-after': '3' }),
      ctx,
    );
    expect(error.retryAfterMs).toBe(3000);
    expect(error.message).toBe('Anthropic (m) returned 429 rate_limit_error: slow down');
    expect(error.retryable).toBe(true);
  });

  it('reads loose error shapes', () => {
    expect(readErrorDetails('{"error":"model not loaded"}').message).toBe('model not loaded');
    expect(readErrorDetails('{"detail":"nope"}').message).toBe('nope');
    expect(readErrorDetails('<html>bad gateway</html>').message).toBe('<html>bad gateway</html>');
  });
});
