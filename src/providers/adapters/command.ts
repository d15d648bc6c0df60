/**
 * Any program as a model: argv as a list (never through a shell), the prompt on stdin or in a
 * temporary file whose path replaces `{prompt_file}` in argv (appended when no argument names
 * it), the output from stdout. A non-zero exit is a `process` error quoting the last stderr
 * lines. A system prompt is placed before the conversation. Programs report no token usage,
 * so the cost is 0 with a `price:` and unknown without; `params` are not used.
 *
 * Prompt shapes (docs/design/prompt-shapes.md): a request that is more than one user message (a
 * prompt of parts, structured output, tools, tool turns) goes instead as the JSON request of
 * command-wire.ts, and AUTORESEARCH_INPUT says which of the two the program gets (`text` or
 * `json`).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelEntry } from '../../experiment/schema.js';
import { tempRoot } from '../../temp-root.js';
import { costOrNull, resolvePrice } from '../prices.js';
import { prependSystem, renderConversation } from '../process/render-prompt.js';
import { callProcess, processFailure } from '../process/call-process.js';
import { type Provider, ProviderError } from '../types.js';
import { buildCommandRequest, needsJsonRequest, parseCommandReply } from './command-wire.js';
import { DEFAULT_PROCESS_TIMEOUT_S, timeoutMsOf } from './defaults.js';
import { monotonicMs } from '../clock.js';

export const PROMPT_FILE_PLACEHOLDER = '{prompt_file}';

export interface CommandProviderDeps {
  env: NodeJS.ProcessEnv;
  /** Where relative paths in argv resolve: the project root. */
  cwd?: string;
  now?: () => number;
}

export function substitutePromptFile(argv: readonly string[], path: string): string[] {
  const named = argv.some((arg) => arg.includes(PROMPT_FILE_PLACEHOLDER));
  const replaced = argv.map((arg) => arg.split(PROMPT_FILE_PLACEHOLDER).join(path));
  return named ? replaced : [...replaced, path];
}

export function createCommandProvider(entry: ModelEntry, deps: CommandProviderDeps): Provider {
  const argv = entry.command ?? [];
  const model = entry.model ?? argv.join(' ');
  const label = `command \`${argv[0] ?? ''}\``;
  const now = deps.now ?? monotonicMs;
  return {
    name: 'command',
    model,
    async complete(request) {
      const [file] = argv;
      if (file === undefined)
        throw new ProviderError('bad_request', 'provider `command` needs `command: [program, …]`');
      const system = request.system ?? entry.system;
      const json = needsJsonRequest(request);
      const prompt = json
        ? buildCommandRequest(request, system)
        : prependSystem(system, renderConversation(request.messages));
      const started = now();
      const promptDir = entry.input === 'file' ? await mkdtemp(join(await tempRoot(), 'prompt-')) : undefined;
      try {
        let args = argv.slice(1);
        if (promptDir !== undefined) {
          const path = join(promptDir, json ? 'request.json' : 'prompt.txt');
          await writeFile(path, prompt, 'utf8');
          args = substitutePromptFile(args, path);
        }
        const outcome = await callProcess({
          file,
          args,
          input: promptDir === undefined ? prompt : '',
          env: { ...deps.env, AUTORESEARCH_INPUT: json ? 'json' : 'text' },
          timeoutMs: timeoutMsOf(entry, DEFAULT_PROCESS_TIMEOUT_S),
          signal: request.signal,
          label,
          cwd: deps.cwd ?? process.cwd(),
        });
        if (outcome.exitCode !== 0) throw processFailure(label, outcome, deps.env);
        const usage = { inputTokens: 0, outputTokens: 0 };
        const reply = (request.tools?.length ?? 0) > 0 ? parseCommandReply(outcome.stdout, label) : undefined;
        return {
          text: reply?.text ?? outcome.stdout,
          ...(reply?.toolCalls === undefined ? {} : { toolCalls: reply.toolCalls }),
          usage,
          costUsd: costOrNull(resolvePrice(entry), usage),
          latencyMs: now() - started,
        };
      } finally {
        if (promptDir !== undefined) await rm(promptDir, { recursive: true, force: true });
      }
    },
  };
}
