/**
 * Turns a non-2xx answer into a ProviderError whose kind decides retry and run-stop
 * behaviour. Messages name the key variable, never the key.
 */
import { clip, redactSecrets } from '../redact.js';
import { ProviderError, type ProviderErrorKind } from '../types.js';
import { type HeaderReader, parseRetryAfter } from './retry-after.js';

export interface HttpErrorContext {
  /** e.g. "Anthropic (claude-sonnet-4-5)" */
  label: string;
  /** The environment variable the key came from, if any. */
  keyEnv: string | undefined;
  keySent: boolean;
  /** Values to scrub from any server text we repeat. */
  secrets: readonly (string | undefined)[];
}

interface ErrorDetails {
  message: string;
  type: string | undefined;
  code: string | undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Anthropic `{type:'error',error:{type,message}}`, OpenAI `{error:{message,type,code}}`, and the looser shapes of compatible servers. */
export function readErrorDetails(bodyText: string): ErrorDetails {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return { message: bodyText, type: undefined, code: undefined };
  }
  if (typeof parsed !== 'object' || parsed === null)
    return { message: bodyText, type: undefined, code: undefined };
  const root = parsed as Record<string, unknown>;
  const inner = root['error'];
  if (typeof inner === 'string') return { message: inner, type: undefined, code: undefined };
  if (typeof inner === 'object' && inner !== null) {
    const e = inner as Record<string, unknown>;
    return {
      message: str(e['message']) ?? '',
      type: str(e['type']),
      code: str(e['code']) ?? (typeof e['code'] === 'number' ? String(e['code']) : undefined),
    };
  }
  return { message: str(root['message']) ?? str(root['detail']) ?? '', type: undefined, code: undefined };
}

const CREDIT_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached', 'billing_not_active']);

function isCreditFailure(status: number, details: ErrorDetails): boolean {
  if (status === 402) return true;
  if (details.code !== undefined && CREDIT_CODES.has(details.code)) return true;
  if (details.type !== undefined && CREDIT_CODES.has(details.type)) return true;
  return /credit balance is too low|insufficient (credit|balance|funds)/i.test(details.message);
}

export function classifyHttpError(
  status: number,
  bodyText: string,
  headers: HeaderReader,
  context: HttpErrorContext,
): ProviderError {
  const details = readErrorDetails(bodyText);
  const said = clip(redactSecrets(details.message, context.secrets));
  const tag = details.code ?? details.type;
  const suffix = `${tag === undefined ? '' : ` ${tag}`}${said === '' ? '' : `: ${said}`}`;
  const retryAfterMs = parseRetryAfter(headers);
  const options = { status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };

  if (isCreditFailure(status, details)) {
    return new ProviderError(
      'credit',
      `${context.label}: out of credit or quota (${status})${suffix}`,
      options,
    );
  }
  if (status === 401 || status === 403) {
    const who = context.keyEnv ?? 'the API key';
    const message = context.keySent
      ? `${who} was rejected (${status}) by ${context.label}${suffix}`
      : `${context.label} requires an API key (${status}) and none was sent; set ${who}`;
    return new ProviderError('auth', message, options);
  }
  return new ProviderError(kindOfStatus(status), `${context.label} returned ${status}${suffix}`, options);
}

/** What an HTTP status means for retries and the run, however it reached us (an SDK, a CLI's JSON). */
export function kindOfStatus(status: number): ProviderErrorKind {
  if (status === 402) return 'credit';
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  if (status === 408 || status === 409 || status >= 500) return 'server';
  return 'bad_request';
}
