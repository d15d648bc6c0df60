/**
 * Why the user's `claude` / `codex` CLI, run as a judge or grader program, failed. Both print
 * their errors on stdout — Claude Code its result object (`--output-format json`) or a line of
 * text, Codex its `--json` events or text — so the exit code alone said nothing. The reason is
 * read the way the claude-cli and codex-cli providers read it, and classified the same way: a
 * refused login or an exhausted plan is final, like the providers' auth and credit failures.
 */
import { basename } from 'node:path';
import { parseClaudeResult } from '../providers/adapters/claude-cli.js';
import { parseCodexEvents } from '../providers/adapters/codex-cli.js';
import { classifyCliFailure } from '../providers/process/classify-cli-failure.js';
import { CLAUDE_LOGIN_HINT, CODEX_LOGIN_HINT, withLoginHint } from '../providers/process/cli-login-hint.js';
import { clip, redactSecrets } from '../providers/redact.js';
import { ProviderError } from '../providers/types.js';

/** The last few non-empty lines as one line; `skipJson`: not the lines that are JSON objects (events). */
export function textTail(text: string, skipJson = false, lines = 3): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !(skipJson && line.startsWith('{')))
    .slice(-lines)
    .join(' | ');
}

/** The CLI's own account of a failed run, or undefined when it printed nothing usable. */
function statedFailure(cli: 'claude' | 'codex', stdout: string, label: string): ProviderError | undefined {
  const parsed =
    cli === 'claude'
      ? parseClaudeResult(stdout, { provider: 'claude-cli' }, label)
      : parseCodexEvents(stdout, { provider: 'codex-cli' }, label);
  if (parsed instanceof ProviderError && parsed.kind !== 'malformed') return parsed;
  const said = clip(textTail(stdout, true));
  return said === '' ? undefined : new ProviderError(classifyCliFailure(said), `${label} said: ${said}`);
}

/**
 * What a claude/codex program that exited non-zero said, secrets scrubbed, as a ProviderError
 * (with the CLI's login hint when it is an auth failure); undefined when argv is neither CLI
 * or it said nothing on stdout.
 */
export function cliAgentFailure(
  argv: readonly string[],
  stdout: string,
  secrets: readonly (string | undefined)[],
): ProviderError | undefined {
  const name = basename(argv[0] ?? '')
    .toLowerCase()
    .replace(/\.(exe|cmd|bat)$/, '');
  if (name !== 'claude' && name !== 'codex') return undefined;
  const label = name === 'claude' ? 'Claude Code' : 'Codex';
  const stated = statedFailure(name, redactSecrets(stdout, secrets), label);
  if (stated === undefined) return undefined;
  return withLoginHint(stated, name === 'claude' ? CLAUDE_LOGIN_HINT : CODEX_LOGIN_HINT);
}
