/**
 * Token usage as each API reports it, read into one shape: every input token in `inputTokens`,
 * with the parts the provider's prompt cache wrote or served counted apart (prices.ts bills
 * them at their own rates). Claude Code reports the Messages API's usage as it got it.
 */
import type { Usage } from '../types.js';
import { countOf, isRecord } from './defaults.js';

/** `input_tokens` counts only what follows the last cache breakpoint: the cached parts are added. */
export function anthropicUsage(usage: Record<string, unknown>): Usage {
  const written = countOf(usage['cache_creation_input_tokens']);
  const read = countOf(usage['cache_read_input_tokens']);
  return {
    inputTokens: countOf(usage['input_tokens']) + written + read,
    outputTokens: countOf(usage['output_tokens']),
    ...(written > 0 ? { cacheWriteTokens: written } : {}),
    ...(read > 0 ? { cacheReadTokens: read } : {}),
  };
}

/** `prompt_tokens` includes the cached ones, which `prompt_tokens_details.cached_tokens` counts. */
export function openaiUsage(usage: Record<string, unknown>): Usage {
  const details = isRecord(usage['prompt_tokens_details']) ? usage['prompt_tokens_details'] : {};
  const read = countOf(details['cached_tokens']);
  return {
    inputTokens: countOf(usage['prompt_tokens']),
    outputTokens: countOf(usage['completion_tokens']),
    ...(read > 0 ? { cacheReadTokens: read } : {}),
  };
}
