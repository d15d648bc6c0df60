/**
 * The most an agent's model call can cost before it is forwarded, for `budget.usd`'s reservations
 * (docs/design/agent-runs.md "Budget"): the request body as sent, all of it counted as input (~4
 * characters a token, as every estimate counts), at the requested model's built-in price, and the
 * output at the request's own cap — Anthropic's `max_tokens`, the Responses API's
 * `max_output_tokens`, or the runner's assumed 1024 when the request sets none. Null when the model
 * has no built-in price: such calls are recorded as unpriced and held against nothing.
 */
import { ASSUMED_MAX_TOKENS, tokensOf } from '../../experiment/estimate-cost.js';
import { isRecord } from '../../is-record.js';
import { lookUpBuiltInPrice } from '../../providers/prices.js';
import { worstUsdAt } from '../../providers/worst-case-cost.js';
import type { AgentApi } from './call-usage.js';

const OUTPUT_CAP: Record<AgentApi, string> = { anthropic: 'max_tokens', openai: 'max_output_tokens' };

export function agentCallWorstUsd(api: AgentApi, body: unknown, raw: string): number | null {
  if (!isRecord(body) || typeof body['model'] !== 'string') return null;
  const price = lookUpBuiltInPrice(body['model']);
  if (price === undefined) return null;
  const cap = body[OUTPUT_CAP[api]];
  const output = typeof cap === 'number' && Number.isFinite(cap) && cap > 0 ? cap : ASSUMED_MAX_TOKENS;
  return worstUsdAt(price, tokensOf(raw), output);
}
