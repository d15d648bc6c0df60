/**
 * One judge or grader attempt under the sandbox discipline (SPEC 6/7): build the sandbox,
 * start the loopback proxy when the runner serves the model, run the program with the
 * allow-listed environment, read the file it was asked to write, then remove everything.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelClient } from '../providers/types.js';
import type { SandboxFile } from './judge-layout.js';
import { type ModelProxy, startModelProxy } from './model-proxy.js';
import { createSandbox } from './sandbox.js';
import { buildSandboxEnv } from './sandbox-env.js';
import { type SandboxedOutcome, spawnSandboxed } from './spawn-sandboxed.js';

export interface SandboxedProgramRun {
  files: readonly SandboxFile[];
  argv: readonly string[];
  /** Written to the program's stdin (the built-in judge's model settings). */
  input?: string;
  /** The model the proxy serves; absent: no proxy and no model variables. */
  client?: ModelClient;
  /** The user's claude/codex CLI as an agent: keeps its real HOME, gets no proxy. */
  cliAgent?: boolean;
  /** The file the program must write, relative to the sandbox. */
  resultFile: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The runner's environment, filtered through the allow-list (default process.env). */
  env?: NodeJS.ProcessEnv;
  tmpRoot?: string;
}

export interface SandboxedProgramOutcome {
  process: SandboxedOutcome;
  /** The result file's text; undefined when the program wrote none. */
  resultText: string | undefined;
  /** Model calls the proxy passed on that failed. */
  proxyFailures: readonly unknown[];
}

export async function runSandboxedProgram(run: SandboxedProgramRun): Promise<SandboxedProgramOutcome> {
  const sandbox = await createSandbox(run.files, run.tmpRoot === undefined ? {} : { tmpRoot: run.tmpRoot });
  let proxy: ModelProxy | undefined;
  try {
    if (run.client !== undefined && run.cliAgent !== true) {
      proxy = await startModelProxy({
        client: run.client,
        ...(run.signal === undefined ? {} : { signal: run.signal }),
      });
    }
    const env = buildSandboxEnv({
      parent: run.env ?? process.env,
      home: sandbox.home,
      ...(proxy === undefined ? {} : { proxy }),
      ...(run.cliAgent === true ? { cliAgent: true } : {}),
    });
    const outcome = await spawnSandboxed({
      argv: run.argv,
      cwd: sandbox.dir,
      env,
      ...(run.input === undefined ? {} : { input: run.input }),
      timeoutMs: run.timeoutMs,
      ...(run.signal === undefined ? {} : { signal: run.signal }),
    });
    let resultText: string | undefined;
    try {
      resultText = await readFile(join(sandbox.dir, run.resultFile), 'utf8');
    } catch {
      resultText = undefined;
    }
    return { process: outcome, resultText, proxyFailures: [...(proxy?.failures ?? [])] };
  } finally {
    await proxy?.close();
    await sandbox.remove();
  }
}
