/**
 * The user's Codex CLI as a plain model call: `codex exec` non-interactive with JSONL events,
 * nothing persisted, a read-only sandbox, no git check, a fresh temporary cwd, the prompt on
 * stdin (`-`). Flags checked against codex-rs/exec/src/cli.rs and docs/exec.md of the
 * openai/codex repository (0.5x–0.1xx releases): `exec`, `--json`, `--ephemeral`,
 * `--skip-git-repo-check`, `--sandbox read-only`, `--color never`, `-m`, `-c key=value`.
 * The system prompt replaces Codex's own coding-agent instructions through
 * `model_instructions_file` (a private temporary file), and its shell, web search, sub-agent,
 * goal, image and request_user_input tools, its skills list, its permissions and environment
 * messages and its plugin and analytics traffic are turned off, and its own retries through a
 * model provider of ours (`codexProviderSettings`), so a call sends the role's text and not an
 * agent's, once (docs/providers.md says what Codex 0.171 still sends).
 * `params` become `-c key=value` overrides (e.g. `{ model_reasoning_effort: 'low' }`).
 * Temperature and max tokens have no CLI equivalent and are ignored. Events read:
 * `item.completed` with an `agent_message` item (the final answer), `turn.completed` (usage),
 * `turn.failed` and `error`; Codex's "ignoring unrecognized configuration" notices (an
 * `error` item, or a stderr line) become warnings, since a misspelt `params` key is
 * otherwise silently without effect.
 *
 * Prompt shapes (docs/design/prompt-shapes.md): a conversation longer than one user message goes on
 * stdin as the transcript of render-prompt.ts; structured output goes as `--output-schema <file>`
 * (a private temporary file beside the instructions; checked against `codex exec --help` of
 * 0.171.0) and the final agent message is then the JSON answer; tools cannot be offered and
 * are refused.
 */
import { jsonLines } from '../../json-lines.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelEntry } from '../../experiment/schema.js';
import { tempRoot } from '../../temp-root.js';
import { costOrNull, resolvePrice } from '../prices.js';
import { classifyCliFailure } from '../process/classify-cli-failure.js';
import { CODEX_LOGIN_HINT, rethrowWithLoginHint } from '../process/cli-login-hint.js';
import { refuseTools, renderConversation } from '../process/render-prompt.js';
import { callProcess, type ProcessOutcome, processFailure } from '../process/call-process.js';
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

/**
 * Codex's tools and its skills catalogue, off: a generation is a plain model call. Each key
 * checked against Codex 0.171 (an unknown one comes back as an "ignoring" notice).
 */
export const CODEX_TOOLS_OFF: readonly string[] = [
  'features.shell_tool=false',
  'web_search="disabled"',
  'features.multi_agent=false',
  'features.goals=false',
  'features.view_image=false',
  'skills.include_instructions=false',
  // `[tools]` of codex-rs/config/src/config_toml.rs: otherwise sent with every call ("only
  // available in Plan mode"), and exec mode cannot answer it.
  'tools.experimental_request_user_input.enabled=false',
];

/**
 * What Codex adds beside the role's text and sends elsewhere, off: its permissions message and
 * its environment message (which names the call's temporary folder, so the prompt changed with
 * every call), and its plugin and analytics traffic (github.com, chatgpt.com, ab.chatgpt.com
 * on every call in 0.171).
 */
export const CODEX_EXTRAS_OFF: readonly string[] = [
  'include_permissions_instructions=false',
  'include_environment_context=false',
  'features.plugins=false',
  'analytics.enabled=false',
];

/** The model provider the adapter defines (built-in ones cannot be changed: codex-rs/model-provider-info). */
export const CODEX_PROVIDER_ID = 'autoresearch';

/**
 * The built-in `openai` provider's settings (codex-rs/model-provider-info/src/lib.rs,
 * `create_openai_provider`: the name `OpenAI`, the Responses API, the user's Codex login or
 * CODEX_API_KEY, api.openai.com or the ChatGPT backend by login when no base URL is given)
 * with Codex's own retries off: by default it retries a failed request 4 times and a dropped
 * stream 5 times, so one HTTP 500 became 30 requests. The runner retries, and a rejected key
 * must stop the run at once. Not set when `params` choose a `model_provider` of their own.
 */
export function codexProviderSettings(entry: ModelEntry): string[] {
  const at = `model_providers.${CODEX_PROVIDER_ID}`;
  return [
    `model_provider="${CODEX_PROVIDER_ID}"`,
    `${at}.name="OpenAI"`,
    `${at}.wire_api="responses"`,
    `${at}.requires_openai_auth=true`,
    `${at}.request_max_retries=0`,
    `${at}.stream_max_retries=0`,
    ...(entry.base_url === undefined ? [] : [`${at}.base_url=${tomlLiteral(entry.base_url)}`]),
  ];
}

/** Codex refuses an empty instructions file, and without one sends its coding-agent prompt. */
export const CODEX_NO_SYSTEM_INSTRUCTIONS = "Reply to the user's message.";

export function codexInstructions(system: string | undefined): string {
  return system === undefined || system.trim() === '' ? CODEX_NO_SYSTEM_INSTRUCTIONS : system;
}

export function buildCodexArgs(
  entry: ModelEntry,
  instructionsFile: string,
  params?: Record<string, unknown>,
  schemaFile?: string,
): string[] {
  const settings = { ...(entry.params ?? {}), ...(params ?? {}) };
  const overrides = Object.entries(settings).flatMap(([key, value]) => [
    '-c',
    `${key}=${tomlLiteral(value)}`,
  ]);
  const provider = 'model_provider' in settings ? [] : codexProviderSettings(entry);
  return [
    'exec',
    '--json',
    '--ephemeral',
    '--skip-git-repo-check',
    '--sandbox',
    'read-only',
    '--color',
    'never',
    ...(schemaFile === undefined ? [] : ['--output-schema', schemaFile]),
    ...(entry.model === undefined ? [] : ['-m', entry.model]),
    '-c',
    `model_instructions_file=${tomlLiteral(instructionsFile)}`,
    ...[...CODEX_TOOLS_OFF, ...CODEX_EXTRAS_OFF, ...provider].flatMap((setting) => ['-c', setting]),
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
  for (const event of jsonLines(stdout)) {
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
      // Like OpenAI's usage: the input count includes the cached part, counted apart too.
      usage.inputTokens += countOf(event['usage']['input_tokens']);
      usage.outputTokens += countOf(event['usage']['output_tokens']);
      const cached = countOf(event['usage']['cached_input_tokens']);
      if (cached > 0) usage.cacheReadTokens = (usage.cacheReadTokens ?? 0) + cached;
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

const IGNORED_SETTINGS = /ignoring .*unrecognized configuration/i;

/** Codex's notices that it ignored settings, from its events and its stderr, one line each. */
export function findCodexWarnings(stdout: string, stderr: string): string[] {
  const found: string[] = [];
  for (const event of jsonLines(stdout)) {
    const item = isRecord(event['item']) ? event['item'] : event;
    const message = item['message'];
    if (typeof message === 'string' && IGNORED_SETTINGS.test(message)) found.push(message);
  }
  for (const line of stderr.split(/\r?\n/)) if (IGNORED_SETTINGS.test(line)) found.push(line);
  const oneLine = found.map((message) => clip(message.replace(/\s*\n\s*/g, ' ').trim()));
  return [...new Set(oneLine)];
}

export function createCodexCliProvider(entry: ModelEntry, deps: ProcessProviderDeps): Provider {
  const model = entry.model ?? 'default';
  const label = `Codex CLI (${model})`;
  const now = deps.now ?? monotonicMs;
  return {
    name: 'codex-cli',
    model,
    complete: (request) =>
      rethrowWithLoginHint(CODEX_LOGIN_HINT, async () => {
        refuseTools(request, label);
        const started = now();
        // Its own folder, not the call's working folder, which Codex sees as its workspace.
        const dir = await mkdtemp(join(await tempRoot(), 'codex-'));
        let outcome: ProcessOutcome;
        try {
          const instructionsFile = join(dir, 'instructions.md');
          await writeFile(instructionsFile, codexInstructions(request.system ?? entry.system), {
            mode: 0o600,
          });
          let schemaFile: string | undefined;
          if (request.output !== undefined) {
            schemaFile = join(dir, 'output-schema.json');
            await writeFile(schemaFile, JSON.stringify(request.output.schema), { mode: 0o600 });
          }
          outcome = await callProcess({
            file: codexBinary(entry, deps.env),
            args: buildCodexArgs(entry, instructionsFile, request.params, schemaFile),
            input: renderConversation(request.messages),
            env: deps.env,
            timeoutMs: timeoutMsOf(entry, DEFAULT_PROCESS_TIMEOUT_S),
            signal: request.signal,
            label,
            notFoundHint: 'install the Codex CLI, or set `binary:` or AUTORESEARCH_CODEX_BIN',
          });
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
        for (const warning of findCodexWarnings(outcome.stdout, outcome.stderr)) {
          deps.onWarning?.(`${label}: ${warning}`);
        }
        const parsed = parseCodexEvents(outcome.stdout, entry, label);
        if (parsed instanceof ProviderError) {
          if (parsed.kind === 'malformed' && outcome.exitCode !== 0)
            throw processFailure(label, outcome, deps.env);
          throw parsed;
        }
        return { ...parsed, latencyMs: now() - started };
      }),
  };
}
