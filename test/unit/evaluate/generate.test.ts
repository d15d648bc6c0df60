/**
 * generateOutputs sends each case the request render-request.ts builds (a path prompt: the
 * request as before prompt parts, field for field) and carries the model's tool calls into
 * the generation.
 */
import { describe, expect, it } from 'vitest';
import { generateOutputs } from '../../../src/evaluate/generate.js';
import type { Case, PromptShape } from '../../../src/experiment/types.js';
import type { CompletionRequest, CompletionResult, ModelClient } from '../../../src/providers/types.js';

function testCase(id: string, vars: Record<string, string>): Case {
  return { id, vars, checks: [], expectations: [], split: 'train', source: { file: 'cases.yaml' } };
}

function client(
  entry: ModelClient['entry'],
  reply: (request: CompletionRequest) => Partial<CompletionResult> = () => ({}),
): ModelClient & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    requests,
    role: 'generator',
    entry,
    simulated: false,
    concurrency: 1,
    async complete(request) {
      requests.push(request);
      return {
        text: 'out',
        usage: { inputTokens: 1, outputTokens: 1 },
        costUsd: 0,
        latencyMs: 1,
        ...reply(request),
      };
    },
  };
}

const PATH: PromptShape = {
  parts: [{ name: 'prompt', role: 'user', text: 'file text', path: '/p.md', optimise: true }],
};

describe('generateOutputs', () => {
  it('sends a path prompt as one user message with the entry system prompt, as before', async () => {
    const generator = client({
      provider: 'anthropic',
      model: 'm',
      system: 'Be brief.',
      temperature: 0.5,
      max_tokens: 50,
    });
    await generateOutputs({
      prompt: 'About {{topic}}',
      shape: PATH,
      cases: [testCase('a', { topic: 'tides' })],
      samples: 1,
      sampleBase: 3,
      client: generator,
    });
    expect(generator.requests).toStrictEqual([
      {
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'About tides' }],
        // The system prompt and "About " repeat for every case: the prompt cache's prefix
        // (docs/design/cost-engine.md).
        cacheable: { lead: 6 },
        temperature: 0.5,
        maxTokens: 50,
        sampleIndex: 3,
      },
    ]);
  });

  it('sends the parts, the schema and the tools, and keeps the tool calls of the answer', async () => {
    const shape: PromptShape = {
      parts: [
        { name: 'system', role: 'system', text: 'old', path: '/s.md', optimise: true },
        { name: 'messages[0]', role: 'user', text: 'About {{topic}}', optimise: false },
      ],
      output: { name: 'o', schema: { type: 'object' }, path: '/o.json' },
      tools: { path: '/t.json', definitions: [{ name: 'look', parameters: { type: 'object' } }] },
    };
    const calls = [{ id: 'c1', name: 'look', arguments: { q: 'tides' } }];
    const generator = client({ provider: 'openai', model: 'm' }, (request) =>
      request.messages.length > 0 ? { text: '', toolCalls: calls } : {},
    );
    const [generation] = await generateOutputs({
      prompt: 'You know {{topic}}.',
      shape,
      cases: [testCase('a', { topic: 'tides' })],
      samples: 1,
      sampleBase: 0,
      client: generator,
    });
    expect(generator.requests[0]).toMatchObject({
      system: 'You know tides.',
      messages: [{ role: 'user', content: 'About tides' }],
      output: { name: 'o', schema: { type: 'object' } },
      tools: [{ name: 'look', parameters: { type: 'object' } }],
    });
    expect(generation).toMatchObject({ ok: true, text: '', toolCalls: calls });
  });
});
