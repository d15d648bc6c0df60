/**
 * What one model call of an agent used, read from the answer the proxy passed on: a streamed
 * answer (server-sent events: Anthropic's `message_start` and `message_delta`, the Responses
 * API's `response.completed`) or a JSON body. The model named is the one that answered.
 */
import { anthropicUsage } from '../../providers/adapters/usage.js';
import { countOf } from '../../providers/adapters/defaults.js';
import { isRecord } from '../../is-record.js';
import type { Usage } from '../../providers/types.js';

export type AgentApi = 'anthropic' | 'openai';

export interface CallUsage {
  model?: string;
  usage: Usage;
}

function eventsOf(text: string): Record<string, unknown>[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const body: unknown = JSON.parse(trimmed);
      return isRecord(body) ? [body] : [];
    } catch {
      return [];
    }
  }
  const events: Record<string, unknown>[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    try {
      const event: unknown = JSON.parse(line.slice('data:'.length).trim());
      if (isRecord(event)) events.push(event);
    } catch {
      // `[DONE]` or a line that is not JSON
    }
  }
  return events;
}

/** The Responses API's usage: `input_tokens` includes the cached ones. */
function responsesUsage(usage: Record<string, unknown>): Usage {
  const details = isRecord(usage['input_tokens_details']) ? usage['input_tokens_details'] : {};
  const read = countOf(details['cached_tokens']);
  return {
    inputTokens: countOf(usage['input_tokens']),
    outputTokens: countOf(usage['output_tokens']),
    ...(read > 0 ? { cacheReadTokens: read } : {}),
  };
}

export function readCallUsage(api: AgentApi, text: string): CallUsage {
  let model: string | undefined;
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  for (const event of eventsOf(text)) {
    if (api === 'anthropic') {
      const message = event['type'] === 'message_start' ? event['message'] : event;
      if (isRecord(message) && message['type'] === 'message') {
        if (typeof message['model'] === 'string') model = message['model'];
        if (isRecord(message['usage'])) usage = anthropicUsage(message['usage']);
      }
      if (event['type'] === 'message_delta' && isRecord(event['usage'])) {
        usage = { ...usage, outputTokens: countOf(event['usage']['output_tokens']) };
      }
    } else {
      const completed = event['type'] === 'response.completed' ? event['response'] : undefined;
      const response = isRecord(completed) ? completed : event['object'] === 'response' ? event : undefined;
      if (response === undefined) continue;
      if (typeof response['model'] === 'string') model = response['model'];
      if (isRecord(response['usage'])) usage = responsesUsage(response['usage']);
    }
  }
  return { ...(model === undefined ? {} : { model }), usage };
}
