/**
 * What to do when Claude Code or Codex refuses its login: the CLI keeps its own credentials, so
 * "check the API key" points the wrong way. Commands checked against `claude auth --help` of
 * 2.1.332 (there is no `claude login`) and `codex login --help` of 0.171.0; the variables are
 * the ones each CLI reads instead of its login (docs/providers.md).
 */
import { ProviderError } from '../types.js';

export const CLAUDE_LOGIN_HINT =
  'log Claude Code in (`claude auth login`, or `claude setup-token` and its token in CLAUDE_CODE_OAUTH_TOKEN), or set ANTHROPIC_API_KEY';

export const CODEX_LOGIN_HINT =
  'log Codex in (`codex login`, or `printenv OPENAI_API_KEY | codex login --with-api-key`), or set CODEX_API_KEY';

/** The same failure with the login hint, when it is one of authentication. */
export function withLoginHint(error: ProviderError, hint: string): ProviderError {
  if (error.kind !== 'auth' || error.hint !== undefined) return error;
  return new ProviderError(error.kind, error.message, {
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(error.costUsd === undefined ? {} : { costUsd: error.costUsd }),
    hint,
    cause: error.cause,
  });
}

/** Runs a CLI call; an authentication failure it throws comes out with the login hint. */
export async function rethrowWithLoginHint<T>(hint: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof ProviderError ? withLoginHint(error, hint) : error;
  }
}
