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

/** A request of a batch as `fail` and `expire` see it. */
export interface BatchedRequest {
  api: FakeApi;
  customId: string;
  body: Record<string, unknown>;
}

/** The batch APIs' behaviour (fake-llm-batches.js); every field may change between phases. */
export interface FakeBatchOptions {
  /** A batch ends this long after it was created (checked when it is retrieved); default 0. */
  completeAfterMs?: number;
  /** A fault for this request: it ends `errored` with that fault's error. */
  fail?: (req: BatchedRequest) => FaultSpec | undefined;
  /** True: this request ends `expired`. */
  expire?: (req: BatchedRequest) => boolean;
  /** Lower the providers' limits for a test. */
  limits?: Partial<Record<FakeApi, Partial<{ requests: number; bytes: number }>>>;
  /** True: no batch or file routes at all (a compatible server without batches answers 404). */
  unsupported?: boolean;
}

export interface FakeServerOptions {
  respond?: Respond;
  latencyMs?: number | ((req: FakeRequest) => number);
  faults?: (FaultSpec | null)[];
  faultRate?: { rate: number; seed: number; kinds: FaultSpec[] };
  requireKey?: string;
  batch?: FakeBatchOptions;
  /** Fixed when the server starts (fake-prompt-cache.js). */
  promptCache?: { ttlMs?: number; now?: () => number; anthropicMinimum?: (model: string) => number };
}

export interface FakeBatchSummary {
  id: string;
  api: FakeApi;
  customIds: string[];
  createdAt: number;
  ended: boolean;
  cancelled: boolean;
}

export interface LogEntry {
  index: number;
  /**
   * `anthropic-batch` / `openai-batch`: a batch or file route (the file upload included);
   * `proxy`: a refused `CONNECT` (path: `host:port`).
   */
  api: FakeApi | 'anthropic-batch' | 'openai-batch' | 'proxy' | 'unknown';
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
  /** The batches submitted so far, in creation order. */
  readonly batches: FakeBatchSummary[];
  queueFaults(...faults: (FaultSpec | null)[]): void;
  configure(options: Partial<FakeServerOptions>): void;
  reset(): void;
  close(): Promise<void>;
}

export function respondWith(provider: Provider): Respond;
export function startFakeLlmServer(initial?: FakeServerOptions): Promise<FakeLlmServer>;
