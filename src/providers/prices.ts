/**
 * What a call cost. A built-in table covers well-known models (USD per million tokens, as
 * published on the Anthropic and OpenAI pricing pages; checked late 2025, the Claude 5 and 5.5
 * rows from Anthropic's model pages in December 2026 — docs/providers.md names them); which providers
 * read it is their registry row's `prices` (registry.ts); an entry's own `price:` always wins,
 * and an unknown model costs null rather than a guess.
 *
 * Input served by the provider's prompt cache is priced at its own rates: Anthropic bills a
 * 5-minute cache write at 1.25× the input price and a read at 0.1×; OpenAI caches on its own,
 * bills no write premium and discounts reads by model (its "cached input" column). A price
 * without cache rates bills cached input at the input price.
 */
import type { ModelEntry, Price } from '../experiment/schema.js';
import { providerRecord } from './registry.js';
import type { Usage } from './types.js';

export type { Price } from '../experiment/schema.js';

function price(input: number, output: number): Price {
  return { input_per_mtok: input, output_per_mtok: output };
}

/** Anthropic's prompt-cache rates: a 5-minute write at 1.25× the input price, a read at 0.1×. */
function claude(input: number, output: number): Price {
  return { ...price(input, output), cache_write_per_mtok: input * 1.25, cache_read_per_mtok: input / 10 };
}

/** OpenAI's: no write premium; a cached read at the model's published "cached input" price. */
function gpt(input: number, cachedInput: number, output: number): Price {
  return { ...price(input, output), cache_read_per_mtok: cachedInput };
}

/** Keyed by the model name without any date suffix. */
export const BUILT_IN_PRICES: Readonly<Record<string, Price>> = {
  // Anthropic
  // Opus 5.5 reads its cache at 0.05× its input price ($0.20), not the usual 0.1×.
  'claude-opus-5-5': { ...claude(4, 20), cache_read_per_mtok: 0.2 },
  'claude-sonnet-5-5': claude(2, 10),
  'claude-opus-5': claude(5, 25),
  'claude-sonnet-5': claude(2, 10),
  'claude-opus-4-5': claude(5, 25),
  'claude-opus-4-1': claude(15, 75),
  'claude-opus-4-0': claude(15, 75),
  'claude-opus-4': claude(15, 75),
  'claude-sonnet-4-5': claude(3, 15),
  'claude-sonnet-4-0': claude(3, 15),
  'claude-sonnet-4': claude(3, 15),
  'claude-3-7-sonnet': claude(3, 15),
  'claude-3-5-sonnet': claude(3, 15),
  'claude-haiku-4-5': claude(1, 5),
  'claude-3-5-haiku': claude(0.8, 4),
  'claude-3-haiku': claude(0.25, 1.25),
  'claude-3-opus': claude(15, 75),
  // OpenAI (input, cached input, output)
  'gpt-5.2': gpt(1.75, 0.175, 14),
  'gpt-5.1': gpt(1.25, 0.125, 10),
  'gpt-5': gpt(1.25, 0.125, 10),
  'gpt-5-mini': gpt(0.25, 0.025, 2),
  'gpt-5-nano': gpt(0.05, 0.005, 0.4),
  'gpt-5-codex': gpt(1.25, 0.125, 10),
  'gpt-4.1': gpt(2, 0.5, 8),
  'gpt-4.1-mini': gpt(0.4, 0.1, 1.6),
  'gpt-4.1-nano': gpt(0.1, 0.025, 0.4),
  'gpt-4o': gpt(2.5, 1.25, 10),
  'gpt-4o-mini': gpt(0.15, 0.075, 0.6),
  'gpt-4-turbo': price(10, 30),
  'gpt-3.5-turbo': price(0.5, 1.5),
  o1: gpt(15, 7.5, 60),
  o3: gpt(2, 0.5, 8),
  'o3-mini': gpt(1.1, 0.55, 4.4),
  'o4-mini': gpt(1.1, 0.275, 4.4),
};

/**
 * `claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`, `claude-3-5-haiku-latest` and
 * OpenRouter-style `anthropic/claude-sonnet-4-5` all name a table entry.
 */
export function normaliseModelName(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^(anthropic|openai)\//, '')
    .replace(/-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '');
}

export function lookUpBuiltInPrice(model: string): Price | undefined {
  return BUILT_IN_PRICES[normaliseModelName(model)];
}

/** The entry's own price, else its registry row's source (registry.ts `prices`); unknown → undefined. */
export function resolvePrice(entry: ModelEntry): Price | undefined {
  if (entry.price !== undefined) return entry.price;
  const source = providerRecord(entry.provider).prices;
  if (source.from === 'free') return price(0, 0);
  if (source.from === 'entry' || entry.model === undefined) return undefined;
  return lookUpBuiltInPrice(source.aliases?.[entry.model.trim().toLowerCase()] ?? entry.model);
}

/**
 * The price to plan with before a run. A provider whose CLI reports each call's cost (Claude
 * Code) has the run count that, so an entry without a known model is estimated at its default
 * model's price instead of leaving the estimate unknown; the note says so.
 */
export function estimatePrice(entry: ModelEntry): { price: Price; note?: string } | undefined {
  const source = providerRecord(entry.provider).prices;
  const reports = source.from === 'table' ? source.reportsCost : undefined;
  const known = resolvePrice(entry);
  const counted = `the run counts the cost ${reports?.by ?? ''} reports for each call`;
  if (known !== undefined) {
    return reports !== undefined && entry.price === undefined
      ? { price: known, note: `${entry.provider}: ${counted}` }
      : { price: known };
  }
  if (reports === undefined) return undefined;
  const assumed = lookUpBuiltInPrice(reports.defaultModel);
  if (assumed === undefined) return undefined;
  const what = entry.model === undefined ? 'its default model' : `\`${entry.model}\``;
  return {
    price: assumed,
    note: `${entry.provider}: ${what} estimated at ${reports.defaultModel} prices; ${counted}`,
  };
}

export function costOf(p: Price, usage: Usage): number {
  const written = usage.cacheWriteTokens ?? 0;
  const read = usage.cacheReadTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - written - read);
  return (
    (plain * p.input_per_mtok +
      written * (p.cache_write_per_mtok ?? p.input_per_mtok) +
      read * (p.cache_read_per_mtok ?? p.input_per_mtok) +
      usage.outputTokens * p.output_per_mtok) /
    1_000_000
  );
}

/** Cost in USD, or null when the price is unknown. */
export function costOrNull(p: Price | undefined, usage: Usage): number | null {
  return p === undefined ? null : costOf(p, usage);
}
