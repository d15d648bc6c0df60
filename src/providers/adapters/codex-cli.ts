/**
 * The user's Codex CLI as a plain model call: `codex exec` non-interactive with JSONL events,
 * nothing persisted, a read-only sandbox, no git check, a fresh temporary cwd, the prompt on
 * stdin (`-`). Flags checked against codex-rs/exec/src/cli.rs and docs/exec.md of the
 * openai/codex repository (0.5x–0.1xx releases): `exec`, `--json`, `--ephemeral`,
 * `--skip-git-repo-check`, `--sandbox read-only`, `--color never`, `-m`, `-c key=value`.
 * The system prompt goes in as `-c developer_instructions=…`; `params` become `-c key=value`
 * overrides (e.g. `{ model_reasoning_effort: 'low' }`). Temperature and max tokens have no
 * CLI equivalent and are ignored. Events read: `item.completed` with an `agent_message`
 * item (the final answer), `turn.completed` (usage), `turn.failed` and `error`.
 */
import type { ModelEntry } from '../../experiment/schema.js';
import { costOrNull, resolvePrice } from '../prices.js';
import { classifyCliFailure } from '../process/classify-cli-failure.js';
import { renderConversation } from '../process/render-prompt.js';
import { callProcess, processFailure } from '../process/call-process.js';
import { clip } from '../redact.js';
import { type CompletionResult, type Provider, ProviderError, type Usage } from '../types.js';
import type { ProcessProviderDeps } from './claude-cli.js';
import { codexBinary } from './cli-binaries.js';
import { countOf, DEFAULT_PROCESS_TIMEOUT_S, isRecord, timeoutMsOf } from './defaults.js';
import { monotonicMs } from '../clock.js';

export { codexBinary } from './cli-binaries.js';

/** `-c` values are parsed as TOML; a JSON string or number literal is valid TOML too. */
function tomlLiteral(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function buildCodexArgs(
  entry: ModelEntry,
  system: string | undefined,
  params?: Record<string, unknown>,
): string[] {
  const overrides = Object.entries({ ...(entry.params ?? {}), ...(params ?? {}) }).flatMap(([key, value]) => [
    '-c',
    `${key}=${tomlLiteral(value)}`,
  ]);
  return [
    'exec',
    '--json',
    '--ephemeral',
    '--skip-git-repo-check',
    '--sandbox',
    'read-only',
    '--color',
    'never',
    ...(entry.model === undefined ? [] : ['-m', entry.model]),
    ...(system === undefined || system === ''
      ? []
      : ['-c', `developer_instructions=${JSON.stringify(system)}`]),
    ...overrides,
    '-',
  ];
}

export function parseCodexEvents(
  stdout: string,
  entry: ModelEntry,
  label: string,
): Omit<CompletionResult, 'latencyMs'> | ProviderError {
  let text: string | undefined;
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let failure: string | undefined;
  for (const line of stdout.split(/\r?\n/)) {
    if (!line.trim().startsWith('{')) continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(event)) continue;
    const item = event['item'];
    if (event['type'] === 'item.completed' && isRecord(item)) {
      const itemType = item['type'] ?? item['item_type'];
      if (
        (itemType === 'agent_message' || itemType === 'assistant_message') &&
        typeof item['text'] === 'string'
      ) {
        text = item['text'];
      }
    } else if (event['type'] === 'turn.completed' && isRecord(event['usage'])) {
      usage.inputTokens += countOf(event['usage']['input_tokens']);
      usage.outputTokens += countOf(event['usage']['output_tokens']);
    } else if (event['type'] === 'turn.failed' && isRecord(event['error'])) {
      failure = String(event['error']['message'] ?? 'turn failed');
    } else if (event['type'] === 'error' && typeof event['message'] === 'string') {
      failure ??= event['message'];
    }
  }
  if (failure !== undefined && text === undefined) {
    const said = clip(failure);
    return new ProviderError(classifyCliFailure(said), `${label} reported an error: ${said}`);
  }
  if (text === undefined)
    return new ProviderError('malformed', `${label}: no final agent message in its events`);
  return { text, usage, costUsd: costOrNull(resolvePrice(entry), usage) };
}

export function createCodexCliProvider(entry: ModelEntry, deps: ProcessProviderDeps): Provider {
  const model = entry.model ?? 'default';
  const label = `Codex CLI (${model})`;
  const now = deps.now ?? monotonicMs;
  return {
    name: 'codex-cli',
    model,
    async complete(request) {
      const started = now();
      const outcome = await callProcess({
        file: codexBinary(entry, deps.env),
        args: buildCodexArgs(entry, request.system ?? entry.system, request.params),
        input: renderConversation(request.messages),
        env: deps.env,
        timeoutMs: timeoutMsOf(entry, DEFAULT_PROCESS_TIMEOUT_S),
        signal: request.signal,
        label,
        notFoundHint: 'install the Codex CLI, or set `binary:` or AUTORESEARCH_CODEX_BIN',
      });
      const parsed = parseCodexEvents(outcome.stdout, entry, label);
      if (parsed instanceof ProviderError) {
        if (parsed.kind === 'malformed' && outcome.exitCode !== 0)
          throw processFailure(label, outcome, deps.env);
        throw parsed;
      }
      return { ...parsed, latencyMs: now() - started };
    },
  };
}
