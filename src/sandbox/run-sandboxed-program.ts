/**
 * One judge or grader attempt under the sandbox discipline (docs/design/judge-protocol.md,
 * docs/design/grader-protocol.md): build the sandbox, start the loopback proxy when the runner
 * serves the model, run the program with the allow-listed environment, read the file it was asked
 * to write, then remove everything.
 */
import { type ProcessResult, type ProcessRun, runProcess } from '../process/run-process.js';
import type { ModelClient } from '../providers/types.js';
import { diskCap } from './disk-cap.js';
import { type IsolatedStart, isolateProgram, proxyListen, startProxyFor } from './isolate-program.js';
import { type ResultFileRead, readResultFile } from './read-result-file.js';
import type { Isolation } from './isolation.js';
import type { ModelProxy } from './model-proxy.js';
import {
  createSandbox,
  type Sandbox,
  type SandboxFile,
  type SandboxOptions,
  writeSandboxFiles,
} from './sandbox.js';
import type { SandboxAgent } from './sandbox-agent.js';
import { DEFAULT_LIMITS, type SandboxLimits } from './sandbox-limits.js';

export interface SandboxedProgramRun {
  files: readonly SandboxFile[];
  argv: readonly string[];
  /** Written to the program's stdin (the built-in judge's model settings). */
  input?: string;
  /** The model the proxy serves; absent: no proxy and no model variables. */
  client?: ModelClient;
  /** The user's claude/codex CLI as an agent: keeps its HOME's path and login (under `os` a private copy), gets no proxy. */
  cliAgent?: boolean;
  /** The file the program must write, relative to the sandbox; none for an agent, whose stdout is its result. */
  resultFile?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** A retry of an unusable attempt: the proxy serves no model call from the cache. */
  refresh?: boolean;
  /** Every model call a new sample, counted from `sampleBase` (model-proxy.ts). */
  fresh?: { sampleBase: number };
  /** The runner's environment, filtered through the allow-list (default process.env). */
  env?: NodeJS.ProcessEnv;
  tmpRoot?: string;
  /** docs/design/isolation.md; default `process` (the run chooses: src/sandbox/isolation.ts). */
  isolation?: Isolation;
  /** The project (where a `command`'s relative paths resolved): never shown under `os`. */
  projectDir?: string;
  /** A host folder to work in instead of a fresh one (run-in-sandbox.ts SandboxStart.workspace). */
  workspace?: string;
  /** What the program may use under `os` isolation (sandbox-limits.ts); default DEFAULT_LIMITS. */
  limits?: SandboxLimits;
  /** A coding agent (sandbox-agent.ts): the workspace at its path, the caller's proxy, no network. */
  agent?: SandboxAgent;
  /** Set over the allow-listed environment (run-in-sandbox.ts SandboxRunOptions.extraEnv). */
  extraEnv?: Readonly<Record<string, string>>;
}

export interface SandboxedProgramOutcome {
  process: ProcessResult;
  /** The result file as read back (read-result-file.ts): its text, none, or why it was refused. */
  result: ResultFileRead;
  /** Model calls the proxy passed on that failed. */
  proxyFailures: readonly unknown[];
  /** Why the program was stopped for passing a limit (disk-cap.ts), when it was. */
  overLimit?: string;
}

function sandboxOptions(run: Pick<SandboxedProgramRun, 'tmpRoot' | 'workspace'>): SandboxOptions {
  return {
    ...(run.tmpRoot === undefined ? {} : { tmpRoot: run.tmpRoot }),
    ...(run.workspace === undefined ? {} : { workspace: run.workspace }),
  };
}

/** The model proxy serving the run's model, unless there is none or the program is a CLI agent. */
async function proxyFor(
  run: Pick<
    SandboxedProgramRun,
    'client' | 'cliAgent' | 'signal' | 'refresh' | 'fresh' | 'isolation' | 'agent'
  >,
  sandbox: Sandbox,
): Promise<ModelProxy | undefined> {
  if (run.agent !== undefined)
    return run.agent.startProxy(proxyListen(sandbox, run.isolation ?? 'process'), sandbox);
  if (run.client === undefined || run.cliAgent === true) return undefined;
  return startProxyFor(
    {
      client: run.client,
      ...(run.signal === undefined ? {} : { signal: run.signal }),
      ...(run.refresh === true ? { refresh: true } : {}),
      ...(run.fresh === undefined ? {} : { fresh: run.fresh }),
    },
    sandbox,
    run.isolation ?? 'process',
  );
}

/** What to start: the program as the run's isolation wants it. */
async function startPlan(
  run: Pick<
    SandboxedProgramRun,
    'argv' | 'env' | 'cliAgent' | 'isolation' | 'projectDir' | 'limits' | 'agent' | 'extraEnv'
  >,
  sandbox: Sandbox,
  proxy: ModelProxy | undefined,
): Promise<IsolatedStart | undefined> {
  const argv = run.agent === undefined || proxy === undefined ? run.argv : run.agent.argv(proxy);
  if (argv.length === 0) return undefined;
  return isolateProgram(
    {
      argv,
      env: run.env ?? process.env,
      isolation: run.isolation ?? 'process',
      projectDir: run.projectDir ?? process.cwd(),
      cliAgent: run.cliAgent === true && run.agent === undefined,
      ...(run.agent === undefined ? {} : { agent: run.agent }),
      ...(run.extraEnv === undefined ? {} : { extraEnv: run.extraEnv }),
    },
    sandbox,
    proxy,
    run.limits ?? DEFAULT_LIMITS,
  );
}

function capOf(
  run: SandboxedProgramRun | Omit<SandboxedProgramRun, 'files' | 'input' | 'cliAgent'>,
  sandbox: Sandbox,
) {
  return diskCap(
    {
      ...(run.isolation === undefined ? {} : { isolation: run.isolation }),
      limits: run.limits ?? DEFAULT_LIMITS,
      ...(run.workspace === undefined ? {} : { workspace: run.workspace }),
      ...(run.signal === undefined ? {} : { signal: run.signal }),
    },
    sandbox,
  );
}

export async function runSandboxedProgram(run: SandboxedProgramRun): Promise<SandboxedProgramOutcome> {
  const sandbox = await createSandbox(run.files, sandboxOptions(run));
  const cap = capOf(run, sandbox);
  let proxy: ModelProxy | undefined;
  try {
    proxy = await proxyFor(run, sandbox);
    const plan = await startPlan(run, sandbox, proxy);
    await cap.start();
    const outcome = await runProgram(plan, {
      ...(run.input === undefined ? {} : { input: run.input }),
      timeoutMs: run.timeoutMs,
      signal: cap.signal,
    });
    return {
      process: outcome,
      result:
        run.resultFile === undefined
          ? { kind: 'missing' }
          : await readResultFile(sandbox.dir, run.resultFile),
      proxyFailures: [...(proxy?.failures ?? [])],
      ...(cap.exceeded === undefined ? {} : { overLimit: cap.exceeded }),
    };
  } finally {
    cap.stop();
    await proxy?.close();
    await sandbox.remove();
  }
}

/** The program to start; none (an empty argv) is a program that could not start. */
async function runProgram(
  plan: IsolatedStart | undefined,
  options: Omit<ProcessRun, keyof IsolatedStart>,
): Promise<ProcessResult> {
  if (plan === undefined) {
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
  return runProcess({ ...plan, ...options });
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
  const sandbox = await createSandbox([], sandboxOptions(run));
  const cap = capOf(run, sandbox);
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
    cap.stop();
    await proxy?.close();
    await sandbox.remove();
  };
  let running: Promise<ProcessResult>;
  try {
    proxy = await proxyFor(run, sandbox);
    running = runProgram(await startPlan(run, sandbox, proxy), {
      input: gate,
      timeoutMs: run.timeoutMs,
      signal: cap.signal,
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
        // What the runner wrote is not the program's: the cap counts from here.
        await cap.start();
      } catch (error) {
        refuse(new Error('the sandbox could not be filled'));
        await settle();
        throw error;
      }
      release(input);
      const outcome = await running;
      const result: ResultFileRead =
        run.resultFile === undefined
          ? { kind: 'missing' }
          : await readResultFile(sandbox.dir, run.resultFile);
      const proxyFailures = [...(proxy?.failures ?? [])];
      await settle();
      const overLimit = cap.exceeded;
      return {
        process: outcome,
        result,
        proxyFailures,
        ...(overLimit === undefined ? {} : { overLimit }),
      };
    },
    async cancel() {
      if (used) return;
      used = true;
      refuse(new Error('not needed'));
      await settle();
    },
  };
}
