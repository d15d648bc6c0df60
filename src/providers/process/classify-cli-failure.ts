/**
 * The CLIs report API failures as text. Their wording is matched loosely so an exhausted
 * subscription stops the run (credit), a logged-out CLI fails fast (auth), and transient
 * trouble is retried.
 */
import type { ProviderErrorKind } from '../types.js';

const RULES: readonly [RegExp, ProviderErrorKind][] = [
  [
    /credit balance is too low|usage limit|limit reached|insufficient_quota|exceeded your current quota|out of credits/i,
    'credit',
  ],
  [
    // "Missing environment variable": Codex without the key its model provider reads.
    /invalid api key|please run \/login|not logged in|log ?in again|authenticat|unauthori[sz]ed|\b40[13]\b|oauth token|missing environment variable/i,
    'auth',
  ],
  [/rate.?limit|\b429\b|too many requests/i, 'rate_limit'],
  [
    // "high demand": Codex's words for any 5xx of the Responses API.
    /overloaded|\b5\d\d\b|internal server error|service unavailable|high demand|econnreset|socket hang up|network error|stream disconnected/i,
    'server',
  ],
];

export function classifyCliFailure(text: string): ProviderErrorKind {
  for (const [pattern, kind] of RULES) if (pattern.test(text)) return kind;
  return 'process';
}
