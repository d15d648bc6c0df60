/** Types of fake-llm-server.js (plain JavaScript so the benchmarks can import it); see its header. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Provider } from '../../src/providers/types.js';
import type { FakeApi, FakeRequest, FaultKind, FaultSpec, Respond } from './fake-llm-wire.js';

export type {
  FakeApi,
  FakeMessage,
  FakeOutput,
  FakeRequest,
  FakeTool,
  FakeToolCall,
  FaultKind,
  FaultSpec,
  ReplySpec,
  ReplyToolCall,
  Respond,
} from './fake-llm-wire.js';

export interface FakeServerOptions {
  respond?: Respond;
  latencyMs?: number | ((req: FakeRequest) => number);
  faults?: (FaultSpec | null)[];
  faultRate?: { rate: number; seed: number; kinds: FaultSpec[] };
  requireKey?: string;
}

export interface LogEntry {
  index: number;
  api: FakeApi | 'unknown';
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
  /** The body's text exactly as received (for byte-for-byte request assertions). */
  raw: string | undefined;
  /** As received, except that the key headers are left out. */
  headers: IncomingHttpHeaders;
  hasAuth: boolean;
  /** Of the normalised request (model, system, messages, temperature, tools, output): equal content, equal digest. */
  digest: string | undefined;
  status: number;
  fault: FaultKind | undefined;
  receivedAt: number;
  finishedAt: number;
  inFlightOnArrival: number;
}

export interface FakeLlmServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Base URL for an `anthropic` entry (no /v1). */
  anthropicBaseUrl: string;
  /** Base URL for an `openai` entry (with /v1). */
  openaiBaseUrl: string;
  port: number;
  readonly log: LogEntry[];
  readonly inFlight: number;
  readonly maxInFlight: number;
  queueFaults(...faults: (FaultSpec | null)[]): void;
  configure(options: Partial<FakeServerOptions>): void;
  reset(): void;
  close(): Promise<void>;
}

export function respondWith(provider: Provider): Respond;
export function startFakeLlmServer(initial?: FakeServerOptions): Promise<FakeLlmServer>;
