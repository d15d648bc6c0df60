/**
 * One case's generator request from the prompt's parts (docs/design/prompt-shapes.md): parts in
 * order, the case's conversation after the template's messages, vars filled in every part (no HTML
 * escaping), the candidate text in place of the optimised part — and a path prompt exactly as
 * before.
 */
import { describe, expect, it } from 'vitest';
import { renderRequest } from '../../../src/experiment/render-request.js';
import type { Case, PromptShape } from '../../../src/experiment/types.js';

function testCase(overrides: Partial<Case> = {}): Case {
  return {
    id: 'c1',
    vars: { tier: 'gold & <vip>', question: 'Where is INV-7?' },
    checks: [],
    expectations: [],
    split: 'train',
    source: { file: 'cases.yaml' },
    ...overrides,
  };
}

const SHAPE: PromptShape = {
  parts: [
    { name: 'system', role: 'system', text: 'Help {{tier}} customers.', path: '/s.md', optimise: true },
    { name: 'messages[0]', role: 'user', text: 'Tier: {{tier}}', optimise: false },
    { name: 'messages[1]', role: 'assistant', text: 'Noted.', optimise: false },
    { name: 'messages[2]', role: 'user', text: 'Q: {{question}}', path: '/u.md', optimise: false },
  ],
  output: { name: 'answer', schema: { type: 'object' }, path: '/answer.json' },
  tools: {
    path: '/tools.json',
    definitions: [{ name: 'lookup', parameters: { type: 'object' } }],
  },
};

describe('renderRequest', () => {
  it('sends the parts in order with every part rendered and the candidate as the optimised part', () => {
    const request = renderRequest({ shape: SHAPE, prompt: 'Serve {{tier}} well.', testCase: testCase() });
    expect(request).toEqual({
      // Prompt parts: the `command` provider is sent the JSON request.
      shaped: true,
      system: 'Serve gold & <vip> well.',
      messages: [
        { role: 'user', content: 'Tier: gold & <vip>' },
        { role: 'assistant', content: 'Noted.' },
        { role: 'user', content: 'Q: Where is INV-7?' },
      ],
      // The system prompt and the first message up to its first variable ("Tier: ") repeat for every case.
      cacheable: { lead: 6 },
      output: { name: 'answer', schema: { type: 'object' } },
      tools: [{ name: 'lookup', parameters: { type: 'object' } }],
    });
  });

  it("puts the case's conversation after the template's messages, tool turns included", () => {
    const history = [
      {
        role: 'assistant' as const,
        content: '',
        toolCalls: [{ id: 't1', name: 'lookup', arguments: { id: 7 } }],
      },
      { role: 'tool' as const, toolCallId: 't1', content: '{"total": 12}' },
    ];
    const request = renderRequest({ shape: SHAPE, prompt: 'S', testCase: testCase({ messages: history }) });
    expect(request.messages.slice(3)).toEqual(history);
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool']);
  });

  it('renders a path prompt exactly as before: one user message, and the entry system prompt if any', () => {
    const shape: PromptShape = {
      parts: [{ name: 'prompt', role: 'user', text: 'on disk', path: '/p.md', optimise: true }],
    };
    // Its stable prefix (docs/design/cost-engine.md): the prompt's text before its first variable,
    // "Answer ".
    expect(renderRequest({ shape, prompt: 'Answer {{question}}', testCase: testCase() })).toStrictEqual({
      messages: [{ role: 'user', content: 'Answer Where is INV-7?' }],
      cacheable: { lead: 7 },
    });
    expect(
      renderRequest({ shape, prompt: 'Answer {{question}}', testCase: testCase(), system: 'Be brief.' }),
    ).toStrictEqual({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Answer Where is INV-7?' }],
      cacheable: { lead: 7 },
    });
  });

  it('counts a prompt without variables as stable whole, and keep markers as the nothing they send', () => {
    const shape: PromptShape = {
      parts: [{ name: 'prompt', role: 'user', text: 'on disk', path: '/p.md', optimise: true }],
    };
    const whole = renderRequest({ shape, prompt: 'Say hello.', testCase: testCase() });
    expect(whole.cacheable).toEqual({ lead: 'Say hello.'.length });
    const kept = renderRequest({
      shape,
      prompt: '<!-- keep -->Rules.<!-- /keep --> Q: {{question}}',
      testCase: testCase(),
    });
    expect(kept.messages[0]?.content.slice(0, kept.cacheable?.lead)).toBe('Rules. Q: ');
  });
});
