/** Types of fake-llm-wire.js (plain JavaScript so the benchmarks can import it). */
import type { IncomingHttpHeaders } from 'node:http';

export type FakeApi = 'anthropic' | 'openai';

export interface FakeMessage {
  role: string;
  content: string;
}

export interface FakeRequest {
  api: FakeApi;
  model: string;
  system?: string;
  messages: FakeMessage[];
  temperature?: number;
  max_tokens?: number;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  path: string;
  index: number;
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

export interface ReplySpec {
  text?: string;
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
  request: Pick<FakeRequest, 'model' | 'system' | 'messages' | 'temperature'>,
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
export function successBody(req: FakeRequest, reply: ReplySpec): string;
