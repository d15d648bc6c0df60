/**
 * The most a call can cost before it is made, for the budget's reservations
 * (spend-reservations.ts): its input estimated from the request's text (~4 characters a token,
 * as the plan's estimate counts), all of it at the dearer of the input and cache-write rates, and
 * its output at the full max_tokens it may use. Null when the entry has no price: such calls are
 * recorded as unpriced and do not count toward `budget.usd` (nor do a `command` program's, which
 * reports no tokens).
 */
import { ASSUMED_MAX_TOKENS, tokensOf } from '../experiment/estimate-cost.js';
import type { ModelEntry } from '../experiment/schema.js';
import { estimatePrice, type Price } from './prices.js';
import type { CompletionRequest } from './types.js';

/** Role and format tags around each message, as the APIs count them, roughly. */
const MESSAGE_OVERHEAD_TOKENS = 8;

export function estimateInputTokens(request: CompletionRequest): number {
  const texts = [
    request.system ?? '',
    ...request.messages.map((m) =>
      m.role === 'assistant' && m.toolCalls !== undefined
        ? `${m.content}${JSON.stringify(m.toolCalls)}`
        : m.content,
    ),
    request.output === undefined ? '' : JSON.stringify(request.output.schema),
    request.tools === undefined ? '' : JSON.stringify(request.tools),
  ];
  return (
    texts.reduce((sum, text) => sum + tokensOf(text), 0) +
    MESSAGE_OVERHEAD_TOKENS * (request.messages.length + 1)
  );
}

/** What the call may be asked to write at most: the request's limit, else the entry's, else the adapters' default. */
export function maxOutputTokens(entry: ModelEntry, request: CompletionRequest): number {
  return request.maxTokens ?? entry.max_tokens ?? ASSUMED_MAX_TOKENS;
}

export function worstCaseUsd(entry: ModelEntry, request: CompletionRequest): number | null {
  // A `command` program reports no tokens, so its calls are billed nothing through the run.
  if (entry.provider === 'command') return null;
  const price = estimatePrice(entry)?.price;
  if (price === undefined) return null;
  return worstUsdAt(price, estimateInputTokens(request), maxOutputTokens(entry, request));
}

/** The formula: every input token at the dearer of the input and cache-write rates, every output token it may write. */
export function worstUsdAt(price: Price, inputTokens: number, outputTokens: number): number {
  const inputRate = Math.max(price.input_per_mtok, price.cache_write_per_mtok ?? 0);
  return (inputTokens * inputRate + outputTokens * price.output_per_mtok) / 1_000_000;
}
