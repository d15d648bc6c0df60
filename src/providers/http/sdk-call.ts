/**
 * One model call through an SDK client (`@anthropic-ai/sdk` or `openai`), with each way it can
 * fail mapped to a ProviderError kind, which decides retries and run stops: the user's abort,
 * our deadline, an unreachable server, an error status (classify-http-error.ts), a body cut
 * mid-way, or a body that is empty or not JSON.
 *
 * The deadline is ours, not only the SDK's `timeout`: the SDK's timer stops once the headers
 * arrive, and a body that trickles in must still end within `timeout_s`.
 */
import { linkSignals } from '../linked-signal.js';
import { ProviderError } from '../types.js';
import { classifyHttpError, type HttpErrorContext } from './classify-http-error.js';
import type { HeaderReader } from './retry-after.js';

/** What both SDKs' APIError carries (a subclass with no status is a connection failure or an abort). */
export interface SdkApiError extends Error {
  readonly status: number | undefined;
  readonly headers: HeaderReader | undefined;
  /** The parsed error body, or the part of it this SDK keeps. */
  readonly error: unknown;
}

type ErrorClass<T extends Error = Error> = abstract new (...args: never[]) => T;

/** The error classes each SDK exports under the same names (`Anthropic.APIError`, `OpenAI.APIError`, …). */
export interface SdkErrorClasses {
  APIError: ErrorClass<SdkApiError>;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
  APIUserAbortError: ErrorClass;
}

export interface SdkCallOptions {
  /** The caller's abort (Ctrl-C); never retried. */
  signal: AbortSignal | undefined;
  timeoutMs: number;
  errors: SdkErrorClasses;
  /** The error body as text, for classifyHttpError (each SDK keeps a different part of it). */
  errorBodyText: (error: SdkApiError) => string;
  http: HttpErrorContext;
  /** Makes the request; `signal` ends it (our deadline or the caller's abort). */
  send: (signal: AbortSignal) => PromiseLike<unknown>;
}

/** The system's reason a connection failed (ECONNREFUSED, ENOTFOUND, …), from fetch's cause chain. */
function causeCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  const deepest = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return deepest instanceof Error ? deepest.message : String(deepest);
}

/** Without a JSON content type the SDK hands back the body as text (or nothing when it is empty). */
function readAnswer(value: unknown, label: string): unknown {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    throw new ProviderError('malformed', `${label}: the response body was empty`);
  }
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw jsonFailure(error, label);
  }
}

function jsonFailure(error: unknown, label: string): ProviderError {
  const cut = /Unexpected end of JSON input|Unterminated string/i.test(String(error));
  return new ProviderError(
    cut ? 'truncated' : 'malformed',
    cut ? `${label}: the response JSON ends mid-way` : `${label}: the response is not valid JSON`,
    { cause: error },
  );
}

function toProviderError(error: unknown, options: SdkCallOptions, deadline: AbortSignal): ProviderError {
  const { errors, http } = options;
  const label = http.label;
  if (options.signal?.aborted || (error instanceof errors.APIUserAbortError && !deadline.aborted)) {
    return new ProviderError('aborted', `${label}: call aborted`, { cause: error });
  }
  if (deadline.aborted || error instanceof errors.APIConnectionTimeoutError) {
    return new ProviderError('timeout', `${label}: no complete answer within ${options.timeoutMs / 1000} s`, {
      cause: error,
    });
  }
  if (error instanceof errors.APIConnectionError) {
    return new ProviderError('network', `${label}: could not reach the server (${causeCode(error)})`, {
      cause: error,
    });
  }
  if (error instanceof errors.APIError && error.status !== undefined) {
    return classifyHttpError(
      error.status,
      options.errorBodyText(error),
      error.headers ?? new Headers(),
      http,
    );
  }
  // The rest fail while the 2xx body is read: it is not JSON, or the connection dropped.
  if (error instanceof SyntaxError) return jsonFailure(error, label);
  return new ProviderError('truncated', `${label}: the response was cut off mid-way`, { cause: error });
}

/** Sends one request and returns its JSON body; every failure is a ProviderError. */
export async function callSdk(options: SdkCallOptions): Promise<unknown> {
  const label = options.http.label;
  if (options.signal?.aborted) throw new ProviderError('aborted', `${label}: call aborted`);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const linked = linkSignals(options.signal, deadline.signal);
  try {
    let answer: unknown;
    try {
      answer = await options.send(linked.signal);
    } catch (error) {
      throw toProviderError(error, options, deadline.signal);
    }
    return readAnswer(answer, label);
  } finally {
    clearTimeout(timer);
    linked.dispose();
  }
}

/** An APIError's text after the `<status> ` the SDKs put in front, for bodies that were not JSON. */
export function errorMessageText(error: SdkApiError): string {
  const text = error.message.replace(/^\d{3} /, '');
  return text === 'status code (no body)' ? '' : text;
}
