/**
 * A sandboxed program's sampling settings, held to its role's entry (docs/design/isolation.md):
 * the proxy spends the run's money and the role's quota, so a program chooses within what the
 * user configured, never beyond. `max_tokens` is capped at the entry's (the adapters' default of
 * 1024 when it sets none), and a `temperature` the entry sets is the one sent. Anything else a
 * request carries (top_p, stop, …) never reaches the API: proxy-wire.ts reads only these two, and
 * the entry's own `params` apply. Values no API would take are refused before this (proxy-wire.ts).
 */
import type { ModelEntry } from '../experiment/schema.js';
import { DEFAULT_ANTHROPIC_MAX_TOKENS } from '../providers/adapters/defaults.js';
import type { WireRequest } from './proxy-wire.js';

export function clampToRole(request: WireRequest, entry: ModelEntry): WireRequest {
  const ceiling = entry.max_tokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  const { temperature, maxTokens, ...rest } = request;
  const chosenTemperature = entry.temperature ?? temperature;
  return {
    ...rest,
    ...(chosenTemperature === undefined ? {} : { temperature: chosenTemperature }),
    ...(maxTokens === undefined ? {} : { maxTokens: Math.min(maxTokens, ceiling) }),
  };
}
