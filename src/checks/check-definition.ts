/** The contract every check type implements; the registry maps type names to these. */
import type { CheckEntry } from '../experiment/schema.js';
import type { CheckResult } from './check-result.js';

/** One thing wrong with a check entry; `keyPath` is relative to the entry (`value`, `min`, …). */
export interface CheckIssue {
  keyPath: string;
  message: string;
  hint?: string;
}

/** What the IO-doing checks (javascript files, command) need besides the output. */
export interface CheckContext {
  vars: Record<string, string>;
  /** The experiment folder: relative paths in checks resolve here, commands run here. */
  baseDir: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export interface CheckDefinition {
  /** Problems with `value`, `min`, `max` for this type, given an entry that passed the schema. */
  validate(entry: CheckEntry): CheckIssue[];
  /** A short rendering of the configured value, for the default display name. */
  describe(entry: CheckEntry): string;
  /** Judges one output; only checks that run user programs are async. Never throws for bad output. */
  run(output: string, entry: CheckEntry, context: CheckContext): CheckResult | Promise<CheckResult>;
}
