/**
 * Two optional request headers by which a program behind the loopback proxy tells the runner
 * what its call is: which sample of a request it is (so `samples: k` identical calls keep
 * distinct cache entries however they arrive), and that it repeats a request whose reply it
 * could not use (so the runner asks the model again and replaces that cache entry instead of
 * serving the same reply). The built-in judge and grader send them; a user's program may.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { CompletionModel } from '../providers/types.js';

export const SAMPLE_HEADER = 'x-autoresearch-sample';
export const REFRESH_HEADER = 'x-autoresearch-refresh';

export interface ProxyHints {
  sample?: number;
  refresh: boolean;
}

/** The headers for a call's hints. */
export function hintHeaders(hints: { sampleIndex?: number; refresh?: boolean }): Record<string, string> {
  return {
    ...(hints.sampleIndex === undefined ? {} : { [SAMPLE_HEADER]: String(hints.sampleIndex) }),
    ...(hints.refresh === true ? { [REFRESH_HEADER]: '1' } : {}),
  };
}

/** The hints a request carries; a malformed sample header is ignored (the proxy numbers the call). */
export function readProxyHints(headers: IncomingHttpHeaders): ProxyHints {
  const sample = headers[SAMPLE_HEADER];
  const index = typeof sample === 'string' && /^\d{1,6}$/.test(sample) ? Number(sample) : undefined;
  return { ...(index === undefined ? {} : { sample: index }), refresh: headers[REFRESH_HEADER] === '1' };
}

/** The model as the built-in judge and grader see it behind the runner's proxy: every call says what it is. */
export function withProxyHints(model: CompletionModel): CompletionModel {
  return {
    complete: (request) =>
      model.complete({ ...request, headers: { ...request.headers, ...hintHeaders(request) } }),
  };
}
