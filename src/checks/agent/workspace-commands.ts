/**
 * `command` checks with `in: workspace` (docs/design/checks.md "Checks on an agent's files and
 * actions"): each runs in its own copy of the workspace as the agent left it (the fixtures and
 * the agent's changes, nothing of the host project), through the one sandbox entry
 * (`runInSandbox`) under the run's isolation and `judging.limits`, at the end of the agent case
 * while that workspace still exists. The results go into the case's agent.json, so a resumed
 * evaluation that takes the case from its record has them without the workspace.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceChecks } from '../../agent/agent-case.js';
import type { WorkspaceCheckRecord } from '../../agent/agent-record.js';
import type { CheckEntry } from '../../experiment/schema.js';
import type { Isolation } from '../../sandbox/isolation.js';
import { runInSandbox } from '../../sandbox/run-in-sandbox.js';
import type { SandboxLimits } from '../../sandbox/sandbox-limits.js';
import { type CheckResult, errored } from '../check-result.js';
import { commandVerdict, readArgv } from '../types/command.js';
import { isWorkspaceCommand, workspaceCheckKey } from './workspace-check-key.js';

/** A test suite takes longer than a script reading one output. */
export const WORKSPACE_COMMAND_TIMEOUT_S = 120;

export interface WorkspaceCommandOptions {
  isolation: Isolation;
  limits: SandboxLimits;
  /** The runner's environment: only the sandbox's allow-list reaches the command. */
  env: NodeJS.ProcessEnv;
  /** Where relative paths in the argv that name an existing file resolve (the experiment folder). */
  experimentDir: string;
  tmpRoot: string;
  /** The case's vars, for `AUTORESEARCH_VARS`. */
  vars: Record<string, string>;
  signal?: AbortSignal;
}

/** The case's workspace commands (global then its own, each distinct one once); undefined when it has none. */
export function workspaceChecksFor(
  entries: readonly CheckEntry[],
  name: (entry: CheckEntry) => string,
  options: WorkspaceCommandOptions,
): WorkspaceChecks | undefined {
  const byKey = new Map<string, CheckEntry>();
  for (const entry of entries)
    if (isWorkspaceCommand(entry) && !byKey.has(workspaceCheckKey(entry)))
      byKey.set(workspaceCheckKey(entry), entry);
  if (byKey.size === 0) return undefined;
  return {
    keys: [...byKey.keys()],
    async run(workspace, toolCalls) {
      const extraEnv = {
        AUTORESEARCH_VARS: JSON.stringify(options.vars),
        AUTORESEARCH_TOOL_CALLS: JSON.stringify(
          toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args })),
        ),
      };
      const records: WorkspaceCheckRecord[] = [];
      // One at a time: each is a sandbox with a copy of the workspace.
      for (const [key, entry] of byKey) {
        options.signal?.throwIfAborted();
        const result = await runInCopy(entry, workspace, extraEnv, options);
        options.signal?.throwIfAborted();
        records.push({ key, name: name(entry), ...result });
      }
      return records;
    },
  };
}

async function runInCopy(
  entry: CheckEntry,
  workspace: string,
  extraEnv: Readonly<Record<string, string>>,
  options: WorkspaceCommandOptions,
): Promise<CheckResult> {
  const argv = readArgv(entry.value);
  if (argv === undefined) return errored('command needs an argv list in value');
  const program = argv[0] as string;
  const timeoutS = entry.timeout_s ?? WORKSPACE_COMMAND_TIMEOUT_S;
  // A copy per command: what one test run writes is not what the next one, or the capture, sees.
  const copy = await mkdtemp(join(options.tmpRoot, 'workspace-check-'));
  try {
    await cp(workspace, copy, { recursive: true, verbatimSymlinks: true });
    const result = await runInSandbox({
      program: { entry: { command: argv }, builtinArgs: [] },
      who: 'workspace check',
      attempts: 1,
      files: [],
      workspace: copy,
      timeoutMs: timeoutS * 1000,
      commandCwd: options.experimentDir,
      env: options.env,
      extraEnv,
      isolation: options.isolation,
      limits: options.limits,
      tmpRoot: options.tmpRoot,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      readOutcome: (outcome) => outcome,
    });
    if (!result.ok) return errored(`${program} could not run in the workspace: ${result.message}`);
    const { process: run, overLimit } = result.value;
    if (overLimit !== undefined) return errored(`${program} was stopped: ${overLimit}`);
    return commandVerdict(program, run, timeoutS, entry.threshold);
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}
