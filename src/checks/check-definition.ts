/** The contract every check type implements; the registry maps type names to these. */
import type { AgentEndReason, TranscriptEntry } from '../agent/agent-run.js';
import type { CheckEntry } from '../experiment/schema.js';
import type { ToolCall } from '../providers/types.js';
import type { CheckResult } from './check-result.js';

/** One thing wrong with a check entry; `keyPath` is relative to the entry (`value`, `min`, …). */
export interface CheckIssue {
  keyPath: string;
  message: string;
  hint?: string;
}

/**
 * A call as the checks see it (docs/design/prompt-shapes.md): as in the output file, without the
 * provider's id.
 */
export type CheckedToolCall = Pick<ToolCall, 'name' | 'arguments'>;

/** What the checks need besides the output text: the case, the tool calls, and for IO (javascript files, command) where to run. */
export interface CheckContext {
  vars: Record<string, string>;
  /**
   * The calls the output made (docs/design/prompt-shapes.md), in order; empty when it made none.
   */
  toolCalls: readonly CheckedToolCall[];
  /** The experiment folder: relative paths in checks resolve here, commands run here. */
  baseDir: string;
  /** An agent case's run (docs/design/agent-runs.md); absent for a model call's output. */
  agent?: CheckedAgentRun;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** What checks on an agent's actions read of its run. */
export interface CheckedAgentRun {
  /** Everything the agent did, in order (its record's `transcript.json`). */
  transcript: readonly TranscriptEntry[];
  /** Why the run ended: after `error` or `timeout`, what it did not do says nothing. */
  endReason: AgentEndReason;
  /** `agent.place: skill`: the optimised skill's name, which `skill-used` looks for by default. */
  skill?: string;
}

export interface CheckDefinition {
  /** Problems with `value`, `min`, `max` for this type, given an entry that passed the schema. */
  validate(entry: CheckEntry): CheckIssue[];
  /** A short rendering of the configured value, for the default display name. */
  describe(entry: CheckEntry): string;
  /** Judges one output; only checks that run user programs are async. Never throws for bad output. */
  run(output: string, entry: CheckEntry, context: CheckContext): CheckResult | Promise<CheckResult>;
}
