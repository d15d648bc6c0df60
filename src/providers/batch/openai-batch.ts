/**
 * OpenAI's Batch API (docs/design/cost-engine.md) through the `openai` SDK: the requests as a JSONL
 * file (`files.create`, purpose `batch`), a batch over it (`batches.create`, 24 h window), its
 * output and error files read back (`files.content`). Each line's body is the body the
 * interactive call would post, so a batched answer is read by the same parser. A compatible
 * server is batched only if `/batches` answers (`supportsBatches`).
 */
import OpenAI, { toFile } from 'openai';
import type { ModelEntry } from '../../experiment/schema.js';
import { DEFAULT_HTTP_TIMEOUT_S, isRecord, timeoutMsOf } from '../adapters/defaults.js';
import {
  buildOpenAiBody,
  createOpenAiClient,
  openAiErrorBodyText,
  parseOpenAiResponse,
} from '../adapters/openai.js';
import { apiKeyEnvName, keyIsRequired, readApiKey, resolveBaseUrl } from '../env.js';
import { callSdk } from '../http/sdk-call.js';
import { ProviderError } from '../types.js';
import type { BatchApi, BatchEntryOutcome, BatchLimits, BatchLine, BatchSupport } from './batch-api.js';

/** OpenAI's limits for one batch file: 50,000 requests or 200 MB. */
export const OPENAI_BATCH_LIMITS: BatchLimits = { requests: 50_000, bytes: 200 * 1024 * 1024 };

const ENDPOINT = '/v1/chat/completions';
const ENDED = new Set(['completed', 'expired', 'cancelled', 'failed']);

function jsonLine(line: BatchLine): string {
  return `${JSON.stringify({ custom_id: line.customId, method: 'POST', url: ENDPOINT, body: line.body })}\n`;
}

export interface OpenAiBatchApi extends BatchApi {
  /** Whether the endpoint answers `GET /batches` (OpenAI does; most local servers do not). */
  supportsBatches(signal: AbortSignal): Promise<boolean>;
}

export function createOpenAiBatchApi(
  entry: ModelEntry,
  env: NodeJS.ProcessEnv,
  limits: BatchLimits = OPENAI_BATCH_LIMITS,
): OpenAiBatchApi {
  const label = `OpenAI Batch (${entry.model ?? ''})`;
  const keyEnv = apiKeyEnvName(entry);
  const timeoutMs = timeoutMsOf(entry, DEFAULT_HTTP_TIMEOUT_S);
  const key = readApiKey(entry, env);
  if (key === undefined && keyIsRequired(entry, env))
    throw new ProviderError('auth', `${keyEnv ?? 'OPENAI_API_KEY'} is not set; ${label} needs it`);
  const sdk = createOpenAiClient(resolveBaseUrl(entry, env), key, timeoutMs);
  const call = <T>(signal: AbortSignal, send: (signal: AbortSignal) => PromiseLike<T>) =>
    callSdk({
      signal,
      timeoutMs,
      errors: OpenAI,
      errorBodyText: openAiErrorBodyText,
      http: { label, keyEnv, keySent: key !== undefined, secrets: [key] },
      send,
    }) as Promise<T>;
  const fileLines = async (id: string | null | undefined, signal: AbortSignal) => {
    if (id === null || id === undefined) return [];
    // Wrapped: the call would read a one-line file as the JSON body it is not.
    const { text } = await call(signal, async (s) => ({
      text: await (await sdk.files.content(id, { signal: s })).text(),
    }));
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        try {
          const value: unknown = JSON.parse(line);
          return isRecord(value) ? [value] : [];
        } catch {
          return [];
        }
      });
  };

  return {
    provider: 'openai',
    limits,
    lineBytes: (line) => Buffer.byteLength(jsonLine(line)),
    async supportsBatches(signal) {
      try {
        await call(signal, (s) => sdk.batches.list({ limit: 1 }, { signal: s }));
        return true;
      } catch (error) {
        if (error instanceof ProviderError && (error.kind === 'aborted' || error.stopsRun)) throw error;
        return false;
      }
    },
    async submit(lines, signal) {
      const content = Buffer.from(lines.map(jsonLine).join(''));
      const file = await call(signal, async (s) =>
        sdk.files.create(
          { file: await toFile(content, 'autoresearch-batch.jsonl'), purpose: 'batch' },
          { signal: s },
        ),
      );
      const batch = await call(signal, (s) =>
        sdk.batches.create(
          { input_file_id: file.id, endpoint: ENDPOINT, completion_window: '24h' },
          { signal: s },
        ),
      );
      return batch.id;
    },
    async status(batchId, signal) {
      const batch = await call(signal, (s) => sdk.batches.retrieve(batchId, { signal: s }));
      return { ended: ENDED.has(batch.status) };
    },
    async results(batchId, signal) {
      const batch = await call(signal, (s) => sdk.batches.retrieve(batchId, { signal: s }));
      const outcomes = new Map<string, BatchEntryOutcome>();
      const lines = [
        ...(await fileLines(batch.output_file_id, signal)),
        ...(await fileLines(batch.error_file_id, signal)),
      ];
      for (const line of lines) {
        const id = line['custom_id'];
        if (typeof id === 'string') outcomes.set(id, outcomeOf(line, label));
      }
      return outcomes;
    },
  };
}

function outcomeOf(line: Record<string, unknown>, label: string): BatchEntryOutcome {
  const response = line['response'];
  const error = line['error'];
  if (isRecord(error)) {
    const expired = error['code'] === 'batch_expired';
    return { kind: expired ? 'expired' : 'errored', message: String(error['message'] ?? error['code']) };
  }
  if (!isRecord(response) || response['status_code'] !== 200) {
    const status = isRecord(response) ? response['status_code'] : undefined;
    return { kind: 'errored', message: `status ${String(status)}` };
  }
  try {
    return { kind: 'succeeded', result: parseOpenAiResponse(response['body'], label) };
  } catch (failure) {
    return { kind: 'errored', message: String(failure) };
  }
}

/** The openai registry row's batch support: a compatible server only if it answers `/batches`. */
export const openAiBatch: BatchSupport = {
  limits: OPENAI_BATCH_LIMITS,
  async open(entry, env, limits, signal) {
    const api = createOpenAiBatchApi(entry, env, limits);
    if (await api.supportsBatches(signal)) return api;
    return { none: `${resolveBaseUrl(entry, env)} does not answer /batches` };
  },
  body: buildOpenAiBody,
};
