/**
 * The seam between an agent case and whoever runs it (docs/design/agent-runs.md): a prepared
 * workspace goes in, the agent (Claude Code, Codex, or the simulated agent of `--provider sim`)
 * works in it until it ends, and what it did comes back as data. Preparing the workspace (fixtures,
 * the optimised artifact in place) and capturing the files it left are the caller's; running the
 * agent, its isolation, its model traffic and its transcript are the runner's.
 *
 * A run that fails is data too (`endReason: 'error'` with `error`), never an exception, except
 * when `signal` aborts (the run is stopping): then the promise rejects with the abort reason and
 * nothing the agent started is left running.
 */
import type { SandboxLimits } from '../sandbox/sandbox-limits.js';
import type { Isolation } from '../experiment/schema.js';

export type AgentKind = 'claude' | 'codex' | 'sim';

/** Why an agent case ended. */
export type AgentEndReason = 'done' | 'max_turns' | 'timeout' | 'error';

export interface AgentLimits {
  /**
   * The tools the agent may use, in its CLI's own names (Claude Code: `Bash`, `Read`, `Write`,
   * `Edit`, `Glob`, `Grep`, `Skill`, …; Codex: `shell`, `apply_patch`, …). Absent: the CLI's
   * defaults. Permission prompts are always off: our sandbox is the boundary.
   */
  allowedTools?: readonly string[];
  /** Model turns at most; the agent is stopped after it (`max_turns`). */
  maxTurns: number;
  /** Wall clock for the whole case; at the limit the process group is killed (`timeout`). */
  timeoutMs: number;
}

export interface AgentRunRequest {
  agent: AgentKind;
  /** The CLI to start (the user's configured path); absent for `sim`. */
  binary?: string;
  /**
   * The prepared host folder (absolute). Inside the sandbox it is always at AGENT_WORKSPACE, so
   * the requests an agent makes do not depend on where the runner put it.
   */
  workspace: string;
  /** The task: the case's user message, its `{{vars}}` already rendered. */
  task: string;
  /** Text appended to the agent's system prompt, when that is the optimised artifact. */
  appendSystemPrompt?: string;
  /** The model the agent runs on (the generator's model); absent: the CLI's default. */
  model?: string;
  limits: AgentLimits;
}

/** Where the runner may keep things and what it reports to, for one (case, sample). */
export interface AgentRunContext {
  /** A folder of the run record for this case and sample (the runner may write its raw stream log there). */
  recordDir: string;
  /** The run's response cache folder for agent model traffic; absent: no cache. */
  cacheDir?: string;
  /** The sample index: part of the cache key, so samples are distinct draws. */
  sampleIndex: number;
  /** Each model call the agent made (cache hits included), for the ledger and the budget. */
  onModelCall?: (call: AgentModelCall) => void;
  /**
   * `budget.usd`: before a call that is not a cache hit is forwarded, a hold of its worst case,
   * settled at what it cost; rejects when the call can never fit (the run is stopping with reason
   * `usd`, and the CLI gets an API error instead of an answer). Absent: no budget.
   */
  holdSpend?: (worstUsd: number) => Promise<SpendHold | undefined>;
  /** The runner's environment: keys are read from it and never passed into the sandbox. */
  env: NodeJS.ProcessEnv;
  isolation: Isolation;
  /** What the agent and everything it starts may use under `os` (`judging.limits`); default DEFAULT_LIMITS. */
  limits?: SandboxLimits;
  tmpRoot?: string;
  signal?: AbortSignal;
}

/** A call's hold on `budget.usd` (src/providers/spend-reservations.ts), settled once. */
export interface SpendHold {
  settle(spentUsd: number): void;
}

export interface AgentModelCall {
  model: string;
  ok: boolean;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** What this call cost now: 0 for a cache hit, null when the model has no price. */
  costUsd: number | null;
  cached: boolean;
  /** Attempts it took: retries of a 429, a 5xx or a failed connection, by the proxy (agent-runs.md). */
  attempts: number;
  latencyMs: number;
}

/** One entry of the readable transcript, in the order it happened. */
export type TranscriptEntry =
  | { kind: 'assistant'; turn: number; text: string }
  | { kind: 'tool_call'; turn: number; id: string; tool: string; input: unknown }
  | {
      kind: 'tool_result';
      turn: number;
      id: string;
      isError: boolean;
      /** Cut to TOOL_RESULT_LIMIT characters; `truncated` says by how much. */
      content: string;
      truncated?: { originalChars: number };
    }
  | { kind: 'error'; turn: number; message: string };

/** A tool result longer than this is cut in the transcript (the agent saw it whole). */
export const TOOL_RESULT_LIMIT = 4000;

/** Where the workspace is inside the sandbox, for every case and sample. */
export const AGENT_WORKSPACE = '/workspace';

export interface AgentUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface AgentRunResult {
  endReason: AgentEndReason;
  /** The agent's last message to the user ('' when it ended without one). */
  finalMessage: string;
  transcript: TranscriptEntry[];
  /** Model turns taken. */
  turns: number;
  durationMs: number;
  usage: AgentUsage;
  /** What the CLI itself reports the case cost, when it does. */
  reportedCostUsd?: number;
  /** For `error` (and `timeout`): what went wrong, scrubbed of secrets, control characters made visible. */
  error?: string;
}

export type RunAgent = (request: AgentRunRequest, context: AgentRunContext) => Promise<AgentRunResult>;
