/**
 * Anthropic Message Batches (docs/design/cost-engine.md) through `@anthropic-ai/sdk`'s
 * `messages.batches`, with the same client settings as the interactive adapter (its retries off:
 * ours wrap every call). Each request's params are the body the interactive call would post, so a
 * batched answer is the answer that call would have got, read by the same parser.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ModelEntry } from '../../experiment/schema.js';
import {
  anthropicErrorBodyText,
  buildAnthropicBody,
  createAnthropicClient,
  parseAnthropicResponse,
} from '../adapters/anthropic.js';
import { DEFAULT_HTTP_TIMEOUT_S, isRecord, timeoutMsOf } from '../adapters/defaults.js';
import { apiKeyEnvName, readApiKey, resolveBaseUrl } from '../env.js';
import { callSdk } from '../http/sdk-call.js';
import { ProviderError } from '../types.js';
import type { BatchApi, BatchEntryOutcome, BatchLimits, BatchSupport } from './batch-api.js';

/** Anthropic's limits for one batch: 100,000 requests or 256 MB. */
export const ANTHROPIC_BATCH_LIMITS: BatchLimits = { requests: 100_000, bytes: 256 * 1024 * 1024 };

export function createAnthropicBatchApi(
  entry: ModelEntry,
  env: NodeJS.ProcessEnv,
  limits: BatchLimits = ANTHROPIC_BATCH_LIMITS,
): BatchApi {
  const label = `Anthropic Message Batches (${entry.model ?? ''})`;
  const keyEnv = apiKeyEnvName(entry);
  const timeoutMs = timeoutMsOf(entry, DEFAULT_HTTP_TIMEOUT_S);
  const key = readApiKey(entry, env);
  if (key === undefined)
    throw new ProviderError('auth', `${keyEnv ?? 'ANTHROPIC_API_KEY'} is not set; ${label} needs it`);
  const sdk = createAnthropicClient(resolveBaseUrl(entry, env), key, timeoutMs);
  const call = <T>(signal: AbortSignal, send: (signal: AbortSignal) => PromiseLike<T>) =>
    callSdk({
      signal,
      timeoutMs,
      errors: Anthropic,
      errorBodyText: anthropicErrorBodyText,
      http: { label, keyEnv, keySent: true, secrets: [key] },
      send,
    }) as Promise<T>;

  return {
    provider: 'anthropic',
    limits,
    lineBytes: (line) =>
      Buffer.byteLength(JSON.stringify({ custom_id: line.customId, params: line.body })) + 1,
    async submit(lines, signal) {
      const requests = lines.map((line) => ({
        custom_id: line.customId,
        params: line.body as unknown as Anthropic.Messages.MessageCreateParamsNonStreaming,
      }));
      const batch = await call(signal, (s) => sdk.messages.batches.create({ requests }, { signal: s }));
      return batch.id;
    },
    async status(batchId, signal) {
      const batch = await call(signal, (s) => sdk.messages.batches.retrieve(batchId, {}, { signal: s }));
      return { ended: batch.processing_status === 'ended' };
    },
    async results(batchId, signal) {
      // Read whole inside the call, so a stream cut mid-way is a failure of the call.
      const lines = await call(signal, async (s) => {
        const all: Anthropic.Messages.MessageBatchIndividualResponse[] = [];
        for await (const line of await sdk.messages.batches.results(batchId, {}, { signal: s }))
          all.push(line);
        return all;
      });
      return new Map(lines.map((line) => [line.custom_id, outcomeOf(line.result, label)]));
    },
  };
}

function outcomeOf(result: Anthropic.Messages.MessageBatchResult, label: string): BatchEntryOutcome {
  if (result.type === 'succeeded') {
    try {
      return { kind: 'succeeded', result: parseAnthropicResponse(result.message, label) };
    } catch (error) {
      return { kind: 'errored', message: String(error) };
    }
  }
  if (result.type === 'errored') {
    const error: unknown = result.error;
    const inner = isRecord(error) && isRecord(error['error']) ? error['error'] : undefined;
    return { kind: 'errored', message: String(inner?.['message'] ?? 'errored') };
  }
  return { kind: result.type };
}

/** The anthropic registry row's batch support. */
export const anthropicBatch: BatchSupport = {
  limits: ANTHROPIC_BATCH_LIMITS,
  open: async (entry, env, limits) => createAnthropicBatchApi(entry, env, limits),
  body: buildAnthropicBody,
};
