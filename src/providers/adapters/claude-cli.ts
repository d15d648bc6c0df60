/**
 * The user's Claude Code binary in print mode, as a plain model call: one turn, no tools, no
 * MCP servers, no settings files, nothing persisted, one stable empty cwd, the prompt on
 * stdin and the system prompt as a flag — always given, empty when the role has none, since
 * without it Claude Code sends its own coding-agent system prompt with every call.
 * The environment turns off Claude Code's own retries (the runner retries, and a rejected
 * key must stop the run, not be retried silently for minutes), its nonessential traffic and
 * its auto memory (a `memory/` folder per call under ~/.claude/projects otherwise). Failures
 * are classified on the result's `api_error_status`, like an HTTP status. Flags checked against the Claude Code CLI reference
 * (code.claude.com/docs/en/cli-reference) and CHANGELOG for 2.0.x–2.1.x: `-p`,
 * `--output-format json`, `--max-turns`, `--tools ""`, `--strict-mcp-config`,
 * `--setting-sources ""`, `--no-session-persistence`, `--system-prompt`, `--model`.
 * The login stays where the user's CLI keeps it (its config directory), so a subscription works.
 *
 * Prompt shapes (docs/design/prompt-shapes.md): a conversation longer than one user message goes on
 * stdin as the transcript of render-prompt.ts; structured output goes as `--json-schema <schema>`
 * (print mode, checked against `claude --help` of 2.1.332) and the answer is the result's
 * `structured_output`, serialised; tools cannot be offered and are refused.
 *
 * The CLI has no temperature or max-tokens flags; those keys are ignored. `params` become
 * extra flags (`{ effort: 'low' }` → `--effort low`; `true` → a bare flag) for whatever the
 * installed version supports.
 */
import { lstat, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelEntry } from '../../experiment/schema.js';
import { costOf, costOrNull, resolvePrice } from '../prices.js';
import { classifyCliFailure } from '../process/classify-cli-failure.js';
import { CLAUDE_LOGIN_HINT, rethrowWithLoginHint } from '../process/cli-login-hint.js';
import { refuseTools, renderConversation } from '../process/render-prompt.js';
import { callProcess, processFailure, tailOf } from '../process/call-process.js';
import { clip } from '../redact.js';
import { kindOfStatus } from '../http/classify-http-error.js';
import {
  type CompletionResult,
  type Provider,
  ProviderError,
  type ProviderErrorKind,
  type StructuredOutput,
} from '../types.js';
import { claudeBinary } from './cli-binaries.js';
import { anthropicUsage } from './usage.js';
import { DEFAULT_PROCESS_TIMEOUT_S, isRecord, timeoutMsOf } from './defaults.js';
import { monotonicMs } from '../clock.js';

export interface ProcessProviderDeps {
  env: NodeJS.ProcessEnv;
  now?: () => number;
  /** Something the user should know that does not fail the call (a CLI ignoring a setting). */
  onWarning?: (message: string) => void;
}

/** Set over the user's environment for every call. */
export const CLAUDE_ENV: Readonly<Record<string, string>> = {
  CLAUDE_CODE_MAX_RETRIES: '0',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1',
};

export function buildClaudeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ...CLAUDE_ENV };
}

export { claudeBinary } from './cli-binaries.js';

/**
 * Claude Code names its working folder in the environment message it sends with every call,
 * so a fresh temporary folder per call changed the prompt each time (and missed the prompt
 * cache). One empty folder for every call, kept: nothing is written there (no tools).
 */
export const CLAUDE_WORKING_FOLDER = join(tmpdir(), 'autoresearch-claude-cli');

/** The stable working folder, made private on first use; a per-call folder if it is not ours. */
async function claudeWorkingFolder(): Promise<string | undefined> {
  await mkdir(CLAUDE_WORKING_FOLDER, { recursive: true, mode: 0o700 });
  const found = await lstat(CLAUDE_WORKING_FOLDER);
  const ours = found.isDirectory() && (process.getuid === undefined || found.uid === process.getuid());
  return ours ? CLAUDE_WORKING_FOLDER : undefined;
}

/** Extra CLI flags from `params`. */
export function paramsToFlags(params: Record<string, unknown> | undefined): string[] {
  const flags: string[] = [];
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    const flag = key.startsWith('-') ? key : `--${key.replace(/_/g, '-')}`;
    if (value === true) flags.push(flag);
    else flags.push(flag, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return flags;
}

export function buildClaudeArgs(
  entry: ModelEntry,
  system: string | undefined,
  params?: Record<string, unknown>,
  output?: StructuredOutput,
): string[] {
  return [
    '-p',
    '--output-format',
    'json',
    '--max-turns',
    '1',
    '--tools',
    '',
    '--strict-mcp-config',
    '--setting-sources',
    '',
    '--no-session-persistence',
    ...(entry.model === undefined ? [] : ['--model', entry.model]),
    '--system-prompt',
    system ?? '',
    ...(output === undefined ? [] : ['--json-schema', JSON.stringify(output.schema)]),
    ...paramsToFlags({ ...(entry.params ?? {}), ...(params ?? {}) }),
  ];
}

/** `claude -p --output-format json` prints one result object; tolerate stray lines around it. */
function findResultObject(stdout: string): Record<string, unknown> | undefined {
  const candidates = [stdout.trim(), ...stdout.split(/\r?\n/).reverse()];
  for (const candidate of candidates) {
    const text = candidate.trim();
    if (!text.startsWith('{')) continue;
    try {
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed) && ('result' in parsed || parsed['type'] === 'result')) return parsed;
    } catch {
      // not this line
    }
  }
  return undefined;
}

/** The API status the CLI got, when it says; its wording otherwise. */
function classifyClaudeError(result: Record<string, unknown>, said: string): ProviderErrorKind {
  const status = result['api_error_status'];
  const fromText = classifyCliFailure(said);
  if (typeof status !== 'number') return fromText;
  // Anthropic reports an exhausted balance as a 400 whose text says so.
  if (fromText === 'credit' || result['api_error_type'] === 'billing_error') return 'credit';
  return kindOfStatus(status);
}

export function parseClaudeResult(
  stdout: string,
  entry: ModelEntry,
  label: string,
  askedStructured = false,
): Omit<CompletionResult, 'latencyMs'> | ProviderError {
  const result = findResultObject(stdout);
  if (result === undefined) return new ProviderError('malformed', `${label}: no JSON result on stdout`);
  const structured = result['structured_output'];
  const text =
    structured !== undefined && structured !== null
      ? JSON.stringify(structured)
      : typeof result['result'] === 'string'
        ? result['result']
        : '';
  const subtype = typeof result['subtype'] === 'string' ? result['subtype'] : 'success';
  const reported = typeof result['total_cost_usd'] === 'number' ? result['total_cost_usd'] : undefined;
  if (result['is_error'] === true || subtype !== 'success') {
    // A failed call the CLI billed is spend all the same.
    const billed = reported !== undefined && reported > 0 ? { costUsd: reported } : {};
    // Asked for structured output in one turn, a plain-text answer leaves Claude Code no turn
    // to give it: a reply that missed its schema, worth another try.
    if (askedStructured && subtype === 'error_max_turns') {
      return new ProviderError(
        'malformed',
        `${label} answered without the structured output asked for (error_max_turns)`,
        billed,
      );
    }
    const said = clip(text === '' ? subtype : text);
    return new ProviderError(
      classifyClaudeError(result, said),
      `${label} reported an error: ${said}`,
      billed,
    );
  }
  const usage = isRecord(result['usage']) ? result['usage'] : {};
  // Claude Code reports the Messages API's usage as it got it.
  const tokens = anthropicUsage(usage);
  const costUsd =
    entry.price !== undefined
      ? costOf(entry.price, tokens)
      : (reported ?? costOrNull(resolvePrice(entry), tokens));
  const stopReason = typeof result['stop_reason'] === 'string' ? result['stop_reason'] : undefined;
  return { text, usage: tokens, costUsd, ...(stopReason === undefined ? {} : { stopReason }) };
}

export function createClaudeCliProvider(entry: ModelEntry, deps: ProcessProviderDeps): Provider {
  const model = entry.model ?? 'default';
  const label = `Claude Code CLI (${model})`;
  const now = deps.now ?? monotonicMs;
  return {
    name: 'claude-cli',
    model,
    complete: (request) =>
      rethrowWithLoginHint(CLAUDE_LOGIN_HINT, async () => {
        refuseTools(request, label);
        const started = now();
        const file = claudeBinary(entry, deps.env);
        const cwd = await claudeWorkingFolder();
        const outcome = await callProcess({
          file,
          ...(cwd === undefined ? {} : { cwd }),
          args: buildClaudeArgs(entry, request.system ?? entry.system, request.params, request.output),
          input: renderConversation(request.messages),
          env: buildClaudeEnv(deps.env),
          timeoutMs: timeoutMsOf(entry, DEFAULT_PROCESS_TIMEOUT_S),
          signal: request.signal,
          label,
          notFoundHint: 'install Claude Code, or set `binary:` or AUTORESEARCH_CLAUDE_BIN',
        });
        const parsed = parseClaudeResult(outcome.stdout, entry, label, request.output !== undefined);
        if (parsed instanceof ProviderError) {
          // Without a result object on stdout, the exit code and stderr say what happened.
          if (findResultObject(outcome.stdout) !== undefined || outcome.exitCode === 0) throw parsed;
          const tail = tailOf(outcome.stderr, deps.env);
          const kind = classifyCliFailure(tail);
          throw kind === 'process'
            ? processFailure(label, outcome, deps.env)
            : new ProviderError(kind, `${label} exited with code ${outcome.exitCode}: ${tail}`);
        }
        return { ...parsed, latencyMs: now() - started };
      }),
  };
}
