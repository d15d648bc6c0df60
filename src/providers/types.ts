/**
 * The one interface every model adapter implements: messages in, text and accounting out.
 * Retries, concurrency limits, caching and cost totals wrap adapters from the outside, so an
 * adapter makes exactly one attempt per call.
 */
import type { ModelEntry, ProviderName, Role } from '../experiment/schema.js';

/**
 * A function call the model made, or one in a case's history (docs/design/prompt-shapes.md). Arguments
 * parsed from JSON.
 */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * One turn of a conversation (docs/design/prompt-shapes.md): assistant turns may call tools, tool
 * turns answer them.
 */
export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A tool (function) the generator may call: `parameters` is a JSON Schema of its arguments. */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

/**
 * Structured output (docs/design/prompt-shapes.md `output.json_schema`), sent natively by each
 * provider.
 */
export interface StructuredOutput {
  /** A name for the schema (providers require one): the schema file's base name. */
  name: string;
  schema: Record<string, unknown>;
}

export interface CompletionRequest {
  system?: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  /** Answer in JSON matching this schema (docs/design/prompt-shapes.md). */
  output?: StructuredOutput;
  /** Tools the model may call (docs/design/prompt-shapes.md). */
  tools?: ToolDefinition[];
  /**
   * Set by the generator when the request comes from a prompt shape (docs/design/prompt-shapes.md:
   * a prompt of parts, or a case's `messages:`), never for a path prompt's single message nor for
   * the runner's own roles: a provider that takes one text (`command`) then sends the shape as its
   * JSON request whenever it is more than a single user message, a system prompt included.
   */
  shaped?: boolean;
  /**
   * The stable prefix of a request sent many times over (docs/design/cost-engine.md): the system
   * prompt and the first `lead` characters of the first message (the built-in judge's rubric, a
   * template's text before its first variable). A provider whose prompt cache must be told
   * (Anthropic) marks it cacheable. Not part of the cache key: it never changes the answer.
   */
  cacheable?: { lead: number };
  /** Passed through to the API as is (top_p, stop, reasoning effort, …). */
  params?: Record<string, unknown>;
  /** Which of several samples this is; part of the cache key so samples stay independent. */
  sampleIndex?: number;
  /** Whose bill the call goes on in the ledger (not part of the cache key). */
  account?: string;
  /**
   * A retry of a reply the caller could not use: the cache is not read (it holds that very
   * reply) and the fresh answer replaces its entry, so a later identical call gets the new one.
   */
  refresh?: boolean;
  /** Extra HTTP headers for this call (the built-in judge's hints to the runner's proxy). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface Usage {
  /** Every input token, those written to or read from the provider's prompt cache included. */
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`: written to the provider's prompt cache (Anthropic bills a premium for them). */
  cacheWriteTokens?: number;
  /** Of `inputTokens`: read from the provider's prompt cache, at its discount. */
  cacheReadTokens?: number;
}

export interface CompletionResult {
  text: string;
  /** The calls the model made in its final message, in order (absent or empty: none). */
  toolCalls?: ToolCall[];
  usage: Usage;
  /** USD; null when the price is unknown. */
  costUsd: number | null;
  /**
   * When `costUsd` is null: what the attempts that failed before this answer were billed (a
   * CLI reports it, ProviderError.costUsd). A priced answer's `costUsd` already includes them.
   */
  failedCostUsd?: number;
  latencyMs: number;
  /** Why the model stopped, as the API said it (end_turn, stop, max_tokens, length, …). */
  stopReason?: string;
  /** True when served from the run's cache (no request was made). */
  cached?: boolean;
  /** On a cache hit (costUsd is then 0): what the call cost when it was first made. */
  originalCostUsd?: number | null;
  /** Attempts made, retries included. */
  attempts?: number;
  /** True for the built-in `sim` provider: results must be labelled simulated. */
  simulated?: boolean;
  /**
   * Answered through the provider's batch API (docs/design/cost-engine.md), at its discounted
   * price.
   */
  batch?: boolean;
}

export interface Provider {
  readonly name: ProviderName;
  readonly model: string;
  complete(request: CompletionRequest): Promise<CompletionResult>;
}

/** All the built-in judge and grader need of a model (a ModelClient is one; so is a test's fake). */
export interface CompletionModel {
  complete(request: CompletionRequest): Promise<CompletionResult>;
}

/** Why a call failed; decides whether it is retried and whether the run must stop. */
export type ProviderErrorKind =
  | 'auth' // 401/403: never retried, stops the run (resumable)
  | 'credit' // quota or credit exhausted: never retried, stops the run (resumable)
  | 'bad_request' // 400/404/422: never retried
  | 'rate_limit' // 429
  | 'server' // 5xx, 408, 409
  | 'timeout'
  | 'network'
  | 'malformed' // unparseable or empty body
  | 'truncated' // body cut mid-way
  | 'process' // a CLI or command provider exited non-zero
  | 'aborted'; // the user interrupted

export const RETRYABLE_KINDS: ReadonlySet<ProviderErrorKind> = new Set([
  'rate_limit',
  'server',
  'timeout',
  'network',
  'malformed',
  'truncated',
]);

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  /** Milliseconds the server asked us to wait (Retry-After / retry-after-ms). */
  readonly retryAfterMs: number | undefined;
  /** What the failed call was billed, when the provider says (a CLI's reported cost): spend too. */
  readonly costUsd: number | undefined;
  /** What the user can do about it, when the adapter knows better than "check the API key". */
  readonly hint: string | undefined;

  constructor(
    kind: ProviderErrorKind,
    message: string,
    options: {
      status?: number;
      retryAfterMs?: number;
      costUsd?: number;
      hint?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.costUsd = options.costUsd;
    this.hint = options.hint;
  }

  get retryable(): boolean {
    return RETRYABLE_KINDS.has(this.kind);
  }

  /** Auth and credit failures stop the whole run (as resumable) instead of burning the night. */
  get stopsRun(): boolean {
    return this.kind === 'auth' || this.kind === 'credit';
  }
}

/**
 * A provider wrapped with everything a run needs around each call: retries with backoff,
 * the endpoint's concurrency limit, the response cache and cost accounting. Stages (and the
 * judge proxy) only ever talk to a ModelClient.
 */
export interface ModelClient {
  readonly role: Role;
  readonly entry: ModelEntry;
  readonly simulated: boolean;
  /** How many calls its endpoint takes at once (the run's limit for it, shared with other roles). */
  readonly concurrency: number;
  complete(request: CompletionRequest): Promise<CompletionResult>;
}
