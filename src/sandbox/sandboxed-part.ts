/**
 * How the product's judge and grader are made (sandboxed-judge.ts, sandboxed-grader.ts): from the
 * experiment's entry and the run's client, each review call then running in the sandbox with its
 * model calls on the candidate's ledger account.
 */
import type { Isolation, JudgeEntry } from '../experiment/schema.js';
import type { ReviewCallOptions } from '../protocol/review-call.js';
import { clientOnAccount } from '../providers/client-on-account.js';
import type { ModelClient } from '../providers/types.js';
import type { SandboxLimits } from './sandbox-limits.js';

export interface SandboxedPartOptions {
  entry: JudgeEntry;
  /** The run's client for this role; a model entry needs it, a program without a model does not. */
  client?: ModelClient;
  /** Where relative paths in a `command` resolve (the experiment's folder). */
  commandCwd: string;
  /** The built CLI (default: found from the package root). */
  cliEntry?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * docs/design/isolation.md, as the run chose it (src/sandbox/isolation.ts); default `process`.
   */
  isolation?: Isolation;
  /** What the program may use under `os` (sandbox-limits.ts), from `judging.limits`. */
  limits?: SandboxLimits;
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
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  };
}
