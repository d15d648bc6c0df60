/**
 * The product's judge: the built-in `autoresearch judge` or the user's `judge.command`, run in
 * a fresh sandbox behind the model proxy (run-judge.ts). Opening a session starts the built-in
 * program at once, so its start-up overlaps the rest of the generation; the first attempt
 * then uses it.
 */
import type { Isolation, JudgeEntry } from '../experiment/schema.js';
import { clientOnAccount } from '../providers/client-on-account.js';
import type { ModelClient } from '../providers/types.js';
import type { Judge, JudgeSession, ReviewCallOptions } from './judge.js';
import { runJudge, startJudgeEarly } from './run-judge.js';
import type { StartedProgram } from '../sandbox/run-sandboxed-program.js';

export interface SandboxedPartOptions {
  entry: JudgeEntry;
  /** The run's client for this role; a model entry needs it, a program without a model does not. */
  client?: ModelClient;
  /** Where relative paths in a `command` resolve (the experiment's folder). */
  commandCwd: string;
  /** The built CLI (default: found from the package root). */
  cliEntry?: string;
  env?: NodeJS.ProcessEnv;
  /** SPEC 17, as the run chose it (src/sandbox/isolation.ts); default `process`. */
  isolation?: Isolation;
}

export function createSandboxedJudge(options: SandboxedPartOptions): Judge {
  return { open: (call) => openSession(options, call) };
}

function openSession(options: SandboxedPartOptions, call: ReviewCallOptions): JudgeSession {
  const run = sandboxOptions(options, call);
  // Its own failure to start is not fatal: the first attempt then starts it the ordinary way.
  const started: Promise<StartedProgram | undefined> = startJudgeEarly({
    judge: options.entry,
    ...run,
  }).catch(() => undefined);
  return {
    async judge(request) {
      const warm = await started;
      return runJudge({
        judge: options.entry,
        ...run,
        ...request,
        ...(warm === undefined ? {} : { started: warm }),
      });
    },
    async close() {
      await (await started)?.cancel();
    },
  };
}

/** The options run-judge and run-grader share, with the calls on the candidate's ledger account. */
export function sandboxOptions(options: SandboxedPartOptions, call: ReviewCallOptions) {
  const client =
    options.client === undefined || call.account === undefined
      ? options.client
      : clientOnAccount(options.client, call.account);
  return {
    ...(client === undefined ? {} : { client }),
    commandCwd: options.commandCwd,
    signal: call.signal,
    ...(options.cliEntry === undefined ? {} : { cliEntry: options.cliEntry }),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
  };
}
