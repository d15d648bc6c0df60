/**
 * One judge or grader attempt under the sandbox discipline (SPEC 6/7): build the sandbox,
 * start the loopback proxy when the runner serves the model, run the program with the
 * allow-listed environment, read the file it was asked to write, then remove everything.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ProcessResult, type ProcessRun, runProcess } from '../process/run-process.js';
import type { ModelClient } from '../providers/types.js';
import type { SandboxFile } from './judge-layout.js';
import { type ModelProxy, startModelProxy } from './model-proxy.js';
import { createSandbox, type Sandbox, writeSandboxFiles } from './sandbox.js';
import { buildSandboxEnv } from './sandbox-env.js';

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
  /** A retry of an unusable attempt: the proxy serves no model call from the cache. */
  refresh?: boolean;
  /** The runner's environment, filtered through the allow-list (default process.env). */
  env?: NodeJS.ProcessEnv;
  tmpRoot?: string;
}

export interface SandboxedProgramOutcome {
  process: ProcessResult;
  /** The result file's text; undefined when the program wrote none. */
  resultText: string | undefined;
  /** Model calls the proxy passed on that failed. */
  proxyFailures: readonly unknown[];
}

/** The loopback proxy serving the run's model, unless there is none or the program is a CLI agent. */
async function proxyFor(
  run: Pick<SandboxedProgramRun, 'client' | 'cliAgent' | 'signal' | 'refresh'>,
): Promise<ModelProxy | undefined> {
  if (run.client === undefined || run.cliAgent === true) return undefined;
  return startModelProxy({
    client: run.client,
    ...(run.signal === undefined ? {} : { signal: run.signal }),
    ...(run.refresh === true ? { refresh: true } : {}),
  });
}

function programEnv(
  run: Pick<SandboxedProgramRun, 'env' | 'cliAgent'>,
  sandbox: Sandbox,
  proxy: ModelProxy | undefined,
): Record<string, string> {
  return buildSandboxEnv({
    parent: run.env ?? process.env,
    home: sandbox.home,
    ...(proxy === undefined ? {} : { proxy }),
    ...(run.cliAgent === true ? { cliAgent: true } : {}),
  });
}

export async function runSandboxedProgram(run: SandboxedProgramRun): Promise<SandboxedProgramOutcome> {
  const sandbox = await createSandbox(run.files, run.tmpRoot === undefined ? {} : { tmpRoot: run.tmpRoot });
  let proxy: ModelProxy | undefined;
  try {
    proxy = await proxyFor(run);
    const env = programEnv(run, sandbox, proxy);
    const outcome = await runProgram(run.argv, {
      cwd: sandbox.dir,
      env,
      ...(run.input === undefined ? {} : { input: run.input }),
      timeoutMs: run.timeoutMs,
      signal: run.signal,
    });
    return {
      process: outcome,
      resultText: await readResultFile(sandbox.dir, run.resultFile),
      proxyFailures: [...(proxy?.failures ?? [])],
    };
  } finally {
    await proxy?.close();
    await sandbox.remove();
  }
}

/** The program in argv form; an empty argv is a program that could not start. */
async function runProgram(
  argv: readonly string[],
  options: Omit<ProcessRun, 'file' | 'args'>,
): Promise<ProcessResult> {
  const [file, ...args] = argv;
  if (file === undefined) {
    return {
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: false,
      stdout: '',
      stderr: '',
      startError: { code: undefined, message: 'no program given' },
    };
  }
  return runProcess({ file, args, ...options });
}

async function readResultFile(dir: string, file: string): Promise<string | undefined> {
  try {
    return await readFile(join(dir, file), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * A built-in judge started before its outputs exist: its sandbox is empty and its stdin held
 * while the runner still generates, so Node's start and the CLI's loading overlap generation
 * instead of following it. `finish` fills the sandbox, then sends the settings (the program
 * reads its stdin before it looks at any file), and waits as runSandboxedProgram does;
 * `cancel` stops it unused. Only for our own CLI: a user's judge command is never started
 * before its files are there.
 */
export interface StartedProgram {
  finish(files: readonly SandboxFile[], input: string): Promise<SandboxedProgramOutcome>;
  cancel(): Promise<void>;
}

export async function startSandboxedProgram(
  run: Omit<SandboxedProgramRun, 'files' | 'input' | 'cliAgent'>,
): Promise<StartedProgram> {
  const sandbox = await createSandbox([], run.tmpRoot === undefined ? {} : { tmpRoot: run.tmpRoot });
  let proxy: ModelProxy | undefined;
  let release!: (input: string) => void;
  let refuse!: (reason: Error) => void;
  const gate = new Promise<string>((resolve, reject) => {
    release = resolve;
    refuse = reject;
  });
  // Whoever holds the gate handles its refusal; this keeps a refusal nobody awaits harmless.
  gate.catch(() => undefined);
  const cleanUp = async () => {
    await proxy?.close();
    await sandbox.remove();
  };
  let running: Promise<ProcessResult>;
  try {
    proxy = await proxyFor(run);
    const env = programEnv(run, sandbox, proxy);
    running = runProgram(run.argv, {
      cwd: sandbox.dir,
      env,
      input: gate,
      timeoutMs: run.timeoutMs,
      signal: run.signal,
    });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  let used = false;
  const settle = async (): Promise<ProcessResult> => {
    try {
      return await running;
    } finally {
      await cleanUp();
    }
  };
  return {
    async finish(files, input) {
      if (used) throw new Error('a started program runs once');
      used = true;
      try {
        await writeSandboxFiles(sandbox.dir, files);
      } catch (error) {
        refuse(new Error('the sandbox could not be filled'));
        await settle();
        throw error;
      }
      release(input);
      const outcome = await running;
      const resultText = await readResultFile(sandbox.dir, run.resultFile);
      const proxyFailures = [...(proxy?.failures ?? [])];
      await settle();
      return { process: outcome, resultText, proxyFailures };
    },
    async cancel() {
      if (used) return;
      used = true;
      refuse(new Error('not needed'));
      await settle();
    },
  };
}
