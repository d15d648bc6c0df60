/** The contract every check type implements; the registry maps type names to these. */
import type { CheckEntry } from '../experiment/schema.js';
import type { ToolCall } from '../providers/types.js';
import type { AgentEvidence } from './agent/agent-evidence.js';
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
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /**
   * An agent case's run, workspace and tool calls (src/checks/agent/agent-evidence.ts); absent
   * outside agent experiments. With it, `toolCalls` are the agent's.
   */
  agent?: AgentEvidence;
}

/**
 * What a check type judges: the output text (with `file:`, one of an agent's files instead), the
 * tool calls, or an agent case's workspace or run (those only in agent experiments).
 */
export type CheckSubject = 'text' | 'calls' | 'workspace' | 'run';

export interface CheckDefinition {
  /** Default `text`. */
  subject?: CheckSubject;
  /** Problems with `value`, `min`, `max` for this type, given an entry that passed the schema. */
  validate(entry: CheckEntry): CheckIssue[];
  /** A short rendering of the configured value, for the default display name. */
  describe(entry: CheckEntry): string;
  /** Judges one output; only checks that run user programs are async. Never throws for bad output. */
  run(output: string, entry: CheckEntry, context: CheckContext): CheckResult | Promise<CheckResult>;
}
