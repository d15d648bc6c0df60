/**
 * A built-in program's request as the model proxy reads it off the wire
 * (docs/design/cost-engine.md): what the run's client is then asked, so a batch that submits it in
 * the program's place fills the cache entry the program's own call will look up. Shared by the
 * judge's and the grader's batch calls.
 */
import type { ModelEntry } from '../experiment/schema.js';
import { buildAnthropicBody } from '../providers/adapters/anthropic.js';
import { buildOpenAiBody } from '../providers/adapters/openai.js';
import type { CompletionRequest } from '../providers/types.js';
import { parseWireRequest } from './proxy-wire.js';

/** `api` and `entry`: the proxied settings the runner gives the program (protocol/model-settings.ts). */
export function asProxied(api: string, entry: ModelEntry, request: CompletionRequest): CompletionRequest {
  const wire = api === 'openai' ? 'openai' : 'anthropic';
  const body = wire === 'openai' ? buildOpenAiBody(entry, request) : buildAnthropicBody(entry, request);
  const parsed = parseWireRequest(wire, body);
  if (!parsed.ok) throw new Error(`a built-in program's request the proxy would refuse: ${parsed.message}`);
  return parsed.request;
}
