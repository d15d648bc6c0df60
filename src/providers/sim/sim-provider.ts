/**
 * The `sim` provider: the simulated model behind the Provider interface, for demos and tests
 * without keys or network. Every result says `simulated: true` so what it shows is labelled.
 */
import { monotonicMs } from '../clock.js';
import type { ModelEntry } from '../../experiment/schema.js';
import { type CompletionRequest, type CompletionResult, type Provider, ProviderError } from '../types.js';
import { DEFAULT_SIM_MODEL, simulateCompletion } from './simulate.js';

export function createSimProvider(entry: ModelEntry): Provider {
  const model = entry.model ?? DEFAULT_SIM_MODEL;
  return {
    name: 'sim',
    model,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      if (request.signal?.aborted) throw new ProviderError('aborted', 'the simulated call was aborted');
      const started = monotonicMs();
      const { text, toolCalls, usage } = simulateCompletion({
        system: request.system ?? entry.system,
        messages: request.messages,
        model,
        temperature: request.temperature ?? entry.temperature,
        sampleIndex: request.sampleIndex,
        ...(request.output === undefined ? {} : { output: request.output }),
        ...(request.tools === undefined ? {} : { tools: request.tools }),
      });
      const maxTokens = request.maxTokens ?? entry.max_tokens;
      // Like a real model, a reply longer than max_tokens is cut off and says so.
      const truncated = maxTokens !== undefined && usage.outputTokens > maxTokens;
      return {
        text: truncated ? text.slice(0, maxTokens * 4) : text,
        usage: truncated ? { ...usage, outputTokens: maxTokens } : usage,
        ...(toolCalls === undefined || truncated ? {} : { toolCalls }),
        costUsd: 0,
        latencyMs: monotonicMs() - started,
        stopReason: truncated ? 'max_tokens' : toolCalls === undefined ? 'end_turn' : 'tool_use',
        simulated: true,
      };
    },
  };
}
