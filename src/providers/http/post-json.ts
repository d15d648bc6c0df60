/**
 * One HTTP POST with a JSON body and a JSON answer, with each way it can fail mapped to a
 * ProviderError kind: the user's abort, our timeout, a dropped connection, a body cut
 * mid-way, or a body that is empty or not JSON. Non-2xx answers go to `classify`.
 */
import { linkSignals } from '../linked-signal.js';
import { ProviderError } from '../types.js';
import { type HeaderReader, type HttpAnswer, httpPost } from './http-post.js';

export interface PostJsonOptions {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** The caller's abort (Ctrl-C); never retried. */
  signal: AbortSignal | undefined;
  timeoutMs: number;
  label: string;
  classify: (status: number, bodyText: string, headers: HeaderReader) => ProviderError;
}

function causeCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause !== undefined && typeof cause.code === 'string') return cause.code;
  if (cause !== undefined && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

export async function postJson(options: PostJsonOptions): Promise<unknown> {
  const { signal, timeoutMs, label } = options;
  if (signal?.aborted) throw new ProviderError('aborted', `${label}: call aborted`);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const combined = linkSignals(signal, timeout.signal);

  const fail = (error: unknown, stage: 'connect' | 'read'): ProviderError => {
    if (signal?.aborted) return new ProviderError('aborted', `${label}: call aborted`, { cause: error });
    if (timeout.signal.aborted) {
      return new ProviderError('timeout', `${label}: no complete answer within ${timeoutMs / 1000} s`, {
        cause: error,
      });
    }
    if (stage === 'read') {
      return new ProviderError('truncated', `${label}: the response was cut off mid-way`, { cause: error });
    }
    return new ProviderError('network', `${label}: could not reach the server (${causeCode(error)})`, {
      cause: error,
    });
  };

  try {
    let response: HttpAnswer;
    try {
      response = await httpPost(options.url, {
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify(options.body),
        signal: combined.signal,
      });
    } catch (error) {
      throw fail(error, 'connect');
    }
    const ok = response.status >= 200 && response.status < 300;
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (ok || signal?.aborted || timeout.signal.aborted) throw fail(error, 'read');
      text = '';
    }
    if (!ok) throw options.classify(response.status, text, response.headers);
    if (text.trim() === '') {
      throw new ProviderError('malformed', `${label}: the response body was empty`, {
        status: response.status,
      });
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      const cut = /Unexpected end of JSON input|Unterminated string/i.test(String(error));
      throw new ProviderError(
        cut ? 'truncated' : 'malformed',
        cut ? `${label}: the response JSON ends mid-way` : `${label}: the response is not valid JSON`,
        { status: response.status, cause: error },
      );
    }
  } finally {
    clearTimeout(timer);
    combined.dispose();
  }
}
