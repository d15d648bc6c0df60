import { describe, expect, test } from 'vitest';
import { buildGraderUserMessage } from '../../../../src/protocol/grading.js';
import { buildJudgeUserMessage } from '../../../../src/protocol/judge-call.js';
import { formatFeedbackBlock, MUTATOR_FEEDBACK_FORMAT } from '../../../../src/protocol/mutation.js';
import { simulateCompletion } from '../../../../src/providers/sim/simulate.js';
import type { FakeRequest } from '../../../helpers/fake-llm-server.js';

const PROMPT = 'Write a cold email about Usage-based billing for CTO at a 50-person SaaS.';
const user = (content: string) => [{ role: 'user' as const, content }];

describe('simulateCompletion', () => {
  test('the same request always gives the same text', () => {
    const request = {
      model: 'sim-1',
      system: 'Be helpful.',
      messages: user(PROMPT),
      temperature: 0.7,
      sampleIndex: 2,
    };
    expect(simulateCompletion(request)).toEqual(simulateCompletion({ ...request }));
  });

  test('sample index, temperature, model and system each seed different variations', () => {
    const base = { model: 'sim-1', messages: user(PROMPT), temperature: 0.7, sampleIndex: 0 };
    const texts = new Set([
      simulateCompletion(base).text,
      simulateCompletion({ ...base, sampleIndex: 1 }).text,
      simulateCompletion({ ...base, sampleIndex: 2 }).text,
      simulateCompletion({ ...base, temperature: 1 }).text,
      simulateCompletion({ ...base, model: 'sim-2' }).text,
      simulateCompletion({ ...base, system: 'You write emails.' }).text,
    ]);
    expect(texts.size).toBe(6);
  });

  test('reports usage as ceil(characters / 4)', () => {
    const { text, usage } = simulateCompletion({ system: 'abc', messages: user('hello'), model: 'sim-1' });
    expect(usage).toEqual({ inputTokens: Math.ceil(8 / 4), outputTokens: Math.ceil(text.length / 4) });
  });

  test('recognises its role from the request format', () => {
    const judge = buildJudgeUserMessage({
      rubric: '### Clarity\nClear.',
      criteria: ['clarity'],
      output: 'Hi.',
    });
    const grader = buildGraderUserMessage({
      expectations: ['Says hi'],
      transcript: 'vars: {}',
      outputs: [{ file: 'a.txt', text: 'Hi.' }],
    });
    const mutator = `Improve it.\n${formatFeedbackBlock({
      format: MUTATOR_FEEDBACK_FORMAT,
      strategy: 'focused',
      incumbent: {
        prompt: 'Write about {{x}}.',
        chars: 18,
        placeholders: ['x'],
        keep_blocks: [],
        score: { total: 0.4 },
        criteria: {},
      },
      max_chars: 200,
      failing_cases: [],
      check_failures: [{ name: 'word-count', type: 'word-count', failed: 3, total: 4 }],
      history: [],
      guidance: '',
    })}`;
    expect(simulateCompletion({ messages: user(judge) }).role).toBe('judge');
    expect(simulateCompletion({ messages: user(grader) }).role).toBe('grader');
    expect(simulateCompletion({ messages: user(mutator) }).role).toBe('mutator');
    expect(simulateCompletion({ messages: user(PROMPT) }).role).toBe('generator');
  });

  test('answers a conversation, its last user message holding the rules', () => {
    const messages = [
      { role: 'user' as const, content: 'Earlier question' },
      { role: 'assistant' as const, content: 'Earlier answer' },
      {
        role: 'user' as const,
        content: `${PROMPT}\nStart with 'Subject:'.\nYou must keep it under 80 words.`,
      },
    ];
    const outputs = Array.from(
      { length: 10 },
      (_, i) => simulateCompletion({ messages, sampleIndex: i }).text,
    );
    expect(outputs.filter((o) => o.startsWith('Subject:')).length).toBeGreaterThan(6);
  });

  test('keeps its role when a protocol request is followed by a correction', () => {
    const judge = buildJudgeUserMessage({
      rubric: '### Clarity\nClear.',
      criteria: ['clarity'],
      output: 'Hi.',
    });
    const messages = [
      { role: 'user' as const, content: judge },
      { role: 'assistant' as const, content: 'not json' },
      { role: 'user' as const, content: 'That was not valid JSON. Reply with the JSON object only.' },
    ];
    const reply = simulateCompletion({ messages });
    expect(reply.role).toBe('judge');
    expect(Object.keys(JSON.parse(reply.text).criteria_scores)).toEqual(['clarity']);
  });

  test("accepts a fake LLM server's normalised request as it is", () => {
    const request: Pick<FakeRequest, 'model' | 'system' | 'messages' | 'temperature'> = {
      model: 'claude-sonnet-4-5',
      system: undefined,
      messages: [{ role: 'user', content: PROMPT }],
      temperature: 0.7,
    };
    expect(simulateCompletion(request).text).toContain('usage-based billing');
  });
});
