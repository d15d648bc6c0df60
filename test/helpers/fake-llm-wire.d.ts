/** Types of fake-llm-wire.js (plain JavaScript so the benchmarks can import it). */
import type { IncomingHttpHeaders } from 'node:http';

/** `openai-responses`: the Responses API (POST /v1/responses), which the Codex CLI speaks. */
export type FakeApi = 'anthropic' | 'openai' | 'openai-responses';

/** A tool call as the fake server reads it from a request (arguments parsed, or `{_raw}`). */
export interface FakeToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * One turn, provider-neutral: Anthropic `tool_result` blocks and OpenAI `tool` messages are
 * `{role: 'tool', toolCallId, content}`; assistant `tool_use` blocks / `tool_calls` are `toolCalls`.
 */
export interface FakeMessage {
  role: string;
  content: string;
  toolCalls?: FakeToolCall[];
  toolCallId?: string;
}

export interface FakeTool {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

/** Anthropic `output_config.format` (schema only), OpenAI `response_format.json_schema` or Responses `text.format`. */
export interface FakeOutput {
  name?: string;
  schema: Record<string, unknown>;
  strict?: boolean;
}

export interface FakeRequest {
  api: FakeApi;
  model: string;
  system?: string;
  messages: FakeMessage[];
  tools?: FakeTool[];
  output?: FakeOutput;
  temperature?: number;
  max_tokens?: number;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  path: string;
  index: number;
  /** Set when the request came in a batch (fake-llm-batches.js): its `custom_id`. */
  customId?: string;
}

export type FaultKind =
  | 'server_error'
  | 'unavailable'
  | 'overloaded'
  | 'rate_limit'
  | 'unauthorized'
  | 'forbidden'
  | 'bad_request'
  | 'not_found'
  | 'credit'
  | 'malformed'
  | 'empty'
  | 'truncated'
  | 'hang';

export type FaultSpec =
  | FaultKind
  | { kind: FaultKind; retryAfterS?: number; retryAfterMs?: number; message?: string };

/** A call the reply makes; `arguments` as a string is sent verbatim (to script broken JSON). */
export interface ReplyToolCall {
  id?: string;
  name: string;
  arguments?: Record<string, unknown> | string;
}

export interface ReplySpec {
  /** Default "ok", or "" when the reply makes tool calls. */
  text?: string;
  toolCalls?: ReplyToolCall[];
  usage?: { input_tokens?: number; output_tokens?: number };
  stopReason?: string;
  status?: number;
  headers?: Record<string, string>;
  rawBody?: string;
  fault?: FaultSpec;
}

export type Respond = (req: FakeRequest) => string | ReplySpec | Promise<string | ReplySpec>;

export interface Planned {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export function textOf(content: unknown): string;
export function normalise(
  api: FakeApi,
  body: Record<string, unknown>,
  headers: IncomingHttpHeaders,
  path: string,
  index: number,
): FakeRequest;
export function requestDigest(
  request: Pick<FakeRequest, 'model' | 'system' | 'messages' | 'temperature' | 'tools' | 'output'>,
): string;
export function presentedKey(headers: IncomingHttpHeaders): string | undefined;
export function errorBody(
  api: FakeApi | 'unknown',
  type: string,
  message: string,
  code: string | null,
): string;
export function planFault(
  api: FakeApi | 'unknown',
  spec: Exclude<FaultSpec, string>,
): Planned | 'hang' | 'truncated';
export function estimateTokens(text: string): number;
/** What the prompt cache reports for a request (fake-prompt-cache.js). */
export type PromptCacheUsage =
  | { total: number; cacheWrite: number; cacheRead: number }
  | { total: number; cached: number };
export function successBody(req: FakeRequest, reply: ReplySpec, cache?: PromptCacheUsage): string;
