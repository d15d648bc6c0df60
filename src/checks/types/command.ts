/**
 * `command`: an external program judges the output. `value` is its argv (never a shell
 * string), run in the experiment folder with the output on stdin, the case vars as JSON
 * in `AUTORESEARCH_VARS` and the output's tool calls (docs/design/prompt-shapes.md) as a JSON list
 * in `AUTORESEARCH_TOOL_CALLS`. Exit 0 passes unless stdout is JSON `{pass, score, reason}`;
 * any other exit fails with the last lines of stderr. Default timeout 30 s (`timeout_s`).
 */
import type { CheckDefinition } from '../check-definition.js';
import { type CheckResult, errored, failed, passed } from '../check-result.js';
import { isPlainObject, shorten } from '../check-values.js';
import { lastLines, readObjectResult } from '../javascript/script-result.js';
import { type ProcessResult, runProcess } from '../../process/run-process.js';
import { isWorkspaceCommand, workspaceCheckKey } from '../agent/workspace-check-key.js';

export const COMMAND_TIMEOUT_S = 30;

export function readArgv(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((part) => typeof part === 'string' && part !== '') ? (value as string[]) : undefined;
}

function readJsonVerdict(stdout: string, threshold: number | undefined): CheckResult | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(data) || typeof data['pass'] !== 'boolean') return undefined;
  const score = data['score'];
  const reason = data['reason'];
  return readObjectResult(
    {
      pass: data['pass'],
      score: typeof score === 'number' || typeof score === 'string' ? score : undefined,
      reason: typeof reason === 'string' ? reason : undefined,
    },
    threshold,
  );
}

/** A finished program's verdict, the same for a command in the experiment folder and in a workspace. */
export function commandVerdict(
  program: string,
  result: ProcessResult,
  timeoutS: number,
  threshold: number | undefined,
): CheckResult {
  if (result.timedOut) return errored(`${program} timed out after ${timeoutS}s`);
  if (result.aborted) return errored(`${program} was cancelled`);
  const stderr = lastLines(result.stderr);
  if (result.exitCode === null) {
    const why =
      result.startError !== undefined
        ? `could not start: ${result.startError.message}`
        : `was killed by ${result.signal ?? 'a signal'}`;
    return errored(`${program} ${why}${stderr ? `: ${stderr}` : ''}`);
  }
  if (result.exitCode !== 0) {
    return failed(`${program} exited with code ${result.exitCode}${stderr ? `: ${stderr}` : ''}`);
  }
  return readJsonVerdict(result.stdout, threshold) ?? passed(`${program} exited with code 0`);
}

export const commandCheck: CheckDefinition = {
  validate(entry) {
    if (readArgv(entry.value) === undefined) {
      return [
        {
          keyPath: 'value',
          message: 'command needs an argv list of non-empty strings in value',
          hint: 'e.g. value: [node, checks/tone.mjs] (a list, never one shell string)',
        },
      ];
    }
    return [];
  },
  describe(entry) {
    const argv = shorten((readArgv(entry.value) ?? []).join(' '));
    return isWorkspaceCommand(entry) ? `${argv} (in the workspace)` : argv;
  },
  async run(output, entry, context) {
    const argv = readArgv(entry.value);
    if (argv === undefined) return errored('command needs an argv list in value');
    // Run at the end of the agent case, while its workspace existed (workspace-commands.ts).
    if (isWorkspaceCommand(entry)) {
      const result = context.agent?.workspaceChecks.get(workspaceCheckKey(entry));
      return (
        result ??
        errored(`${argv[0]} was not run in the agent’s workspace: the case’s record holds no result for it`)
      );
    }
    const [program, ...args] = argv as [string, ...string[]];
    const timeoutS = entry.timeout_s ?? COMMAND_TIMEOUT_S;
    const result = await runProcess({
      file: program,
      args,
      cwd: context.baseDir,
      env: {
        ...context.env,
        AUTORESEARCH_VARS: JSON.stringify(context.vars),
        AUTORESEARCH_TOOL_CALLS: JSON.stringify(context.toolCalls),
      },
      input: output,
      timeoutMs: timeoutS * 1000,
      signal: context.signal,
    });
    return commandVerdict(program, result, timeoutS, entry.threshold);
  },
};
