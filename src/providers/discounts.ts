/**
 * What the providers take off a night's bill (docs/design/cost-engine.md), for the plan's estimate:
 * their batch APIs bill half price, and their prompt caches serve a repeated prefix only from a
 * minimum length (Anthropic's by model, as published late 2025; OpenAI's 1,024 tokens). Providers
 * without a batch API or a prompt cache we use get neither (their registry rows: registry.ts
 * `batch`, `promptCache`).
 */
import type { ModelEntry } from '../experiment/schema.js';
import { normaliseModelName } from './prices.js';
import { providerRecord } from './registry.js';

/** Anthropic Message Batches and the OpenAI Batch API: 50% of the interactive price. */
export const BATCH_PRICE_FACTOR = 0.5;

/** The share of the interactive price a batch call pays; null: no batch API (registry.ts `batch`). */
export function batchPriceFactor(entry: ModelEntry): number | null {
  return providerRecord(entry.provider).batch === undefined ? null : BATCH_PRICE_FACTOR;
}

/** The shortest prefix (tokens) the provider's prompt cache serves; null: no prompt cache we use. */
export function cacheMinimumTokens(entry: ModelEntry): number | null {
  const cache = providerRecord(entry.provider).promptCache;
  return cache === undefined ? null : cache.minimumTokens(normaliseModelName(entry.model ?? ''));
}
