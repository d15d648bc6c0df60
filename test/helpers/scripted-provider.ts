/**
 * Scripted model providers for driving the loop with fakes: plug `factory` into
 * `createModelPool({ createProvider })` and each model entry is served by the handler named
 * after its `model`. A handler returns the reply text (or text, usage and tool calls) or throws a
 * ProviderError; the provider prices the call from the entry's `price:` like a real adapter,
 * honours the abort signal, and logs every call.
 *
 *   const scripted = createScriptedProviders({
 *     gen: echoPrompt,
 *     mut: mutatorScript([{ hypothesis: 'h', prompt: '…' }, 'not json']),
 *   });
 *   const pool = createModelPool({ models, concurrency: 4, env, createProvider: scripted.factory });
 */
import type { ModelEntry } from '../../src/experiment/schema.js';
import type { ProviderFactory } from '../../src/providers/create-provider.js';
import { costOrNull, resolvePrice } from '../../src/providers/prices.js';
import {
  type CompletionRequest,
  type CompletionResult,
  type Provider,
  ProviderError,
  type ToolCall,
  type Usage,
} from '../../src/providers/types.js';

export type ScriptedReply = string | { text: string; usage?: Usage; toolCalls?: ToolCall[] };

export interface ScriptedCall {
  /** Calls to this model before this one. */
  index: number;
  model: string;
  request: CompletionRequest;
}

export type ScriptedHandler = (call: ScriptedCall) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedProviders {
  factory: ProviderFactory;
  /** Every call, in arrival order (failed ones included). */
  calls: ScriptedCall[];
  callsTo(model: string): ScriptedCall[];
}

export function createScriptedProviders(handlers: Record<string, ScriptedHandler>): ScriptedProviders {
  const calls: ScriptedCall[] = [];
  const counts = new Map<string, number>();
  const factory: ProviderFactory = (entry: ModelEntry): Provider => {
    const model = entry.model ?? entry.provider;
    const handler = handlers[model];
    if (handler === undefined) throw new Error(`no scripted handler for model "${model}"`);
    return {
      name: entry.provider,
      model,
      async complete(request): Promise<CompletionResult> {
        if (request.signal?.aborted) throw new ProviderError('aborted', 'the scripted call was aborted');
        const index = counts.get(model) ?? 0;
        counts.set(model, index + 1);
        const call = { index, model, request };
        calls.push(call);
        const reply = await handler(call);
        if (request.signal?.aborted) throw new ProviderError('aborted', 'the scripted call was aborted');
        const text = typeof reply === 'string' ? reply : reply.text;
        const usage =
          typeof reply === 'string' || reply.usage === undefined ? usageOf(request, text) : reply.usage;
        return {
          text,
          ...(typeof reply === 'string' || reply.toolCalls === undefined
            ? {}
            : { toolCalls: reply.toolCalls }),
          usage,
          costUsd: costOrNull(resolvePrice(entry), usage),
          latencyMs: 0,
          stopReason: 'end_turn',
        };
      },
    };
  };
  return { factory, calls, callsTo: (model) => calls.filter((c) => c.model === model) };
}

/** The last user message: for a generator call, the rendered prompt. */
export function lastUserMessage(request: CompletionRequest): string {
  const user = request.messages.filter((m) => m.role === 'user');
  return user.at(-1)?.content ?? '';
}

/** The first user message: for a mutator call, the request (retries append to it). */
export function firstUserMessage(request: CompletionRequest): string {
  return request.messages.find((m) => m.role === 'user')?.content ?? '';
}

/** A generator that answers with the rendered prompt itself, so the prompt's words decide the checks. */
export const echoPrompt: ScriptedHandler = ({ request }) => lastUserMessage(request);

export type MutatorStep =
  | { hypothesis: string; prompt: string }
  /** Sent as the raw reply (e.g. garbage). */
  | string
  /** Thrown (e.g. a ProviderError). */
  | Error
  | ((call: ScriptedCall) => { hypothesis: string; prompt: string } | string);

/**
 * A mutator that replies with the steps in order, one per call (retries included). Running
 * out is a test bug, reported as a plain Error so it surfaces in the run's error message.
 */
export function mutatorScript(steps: readonly MutatorStep[]): ScriptedHandler & { remaining(): number } {
  let next = 0;
  const handler = (call: ScriptedCall): ScriptedReply => {
    const step = steps[next];
    next += 1;
    if (step === undefined) throw new Error(`the mutator script ran out at call ${call.index}`);
    if (step instanceof Error) throw step;
    const value = typeof step === 'function' ? step(call) : step;
    return typeof value === 'string' ? value : JSON.stringify(value);
  };
  return Object.assign(handler, { remaining: () => steps.length - next });
}

/** ceil(characters / 4) tokens each way, like the fake server and the sim. */
function usageOf(request: CompletionRequest, text: string): Usage {
  const input = (request.system ?? '').length + request.messages.reduce((n, m) => n + m.content.length, 0);
  return { inputTokens: Math.ceil(input / 4), outputTokens: Math.ceil(text.length / 4) };
}
