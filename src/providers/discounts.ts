/**
 * What the providers take off a night's bill (docs/design/cost-engine.md), for the plan's estimate:
 * their batch APIs bill half price, and their prompt caches serve a repeated prefix only from a
 * minimum length (Anthropic's by model, as published late 2025; OpenAI's 1,024 tokens). Providers
 * without a batch API or a prompt cache we use get neither.
 */
import type { ModelEntry } from '../experiment/schema.js';
import { normaliseModelName } from './prices.js';

/** Anthropic Message Batches and the OpenAI Batch API: 50% of the interactive price. */
export const BATCH_PRICE_FACTOR = 0.5;

/** The share of the interactive price a batch call pays; null: no batch API. */
export function batchPriceFactor(entry: ModelEntry): number | null {
  return entry.provider === 'anthropic' || entry.provider === 'openai' ? BATCH_PRICE_FACTOR : null;
}

/** The shortest prefix (tokens) the provider's prompt cache serves; null: no prompt cache we use. */
export function cacheMinimumTokens(entry: ModelEntry): number | null {
  if (entry.provider === 'openai') return 1024;
  if (entry.provider !== 'anthropic') return null;
  const model = normaliseModelName(entry.model ?? '');
  if (/opus-4-5|haiku-4-5/.test(model)) return 4096;
  if (/3-haiku|3-5-haiku/.test(model)) return 2048;
  return 1024;
}
