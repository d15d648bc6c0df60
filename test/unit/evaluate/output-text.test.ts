import { describe, expect, it } from 'vitest';
import { outputText } from '../../../src/evaluate/output-text.js';

describe('outputText (docs/design/prompt-shapes.md: an output as its file shows it)', () => {
  it('is the text alone when the model called no tool', () => {
    expect(outputText({ text: 'Hello Ada.\n' })).toBe('Hello Ada.\n');
    expect(outputText({ text: 'Hello Ada.', toolCalls: [] })).toBe('Hello Ada.');
  });

  it('puts the calls after a blank line as one JSON line, name first, arguments with sorted keys', () => {
    const text = outputText({
      text: 'Let me check.',
      toolCalls: [
        { name: 'get_weather', arguments: { unit: 'c', city: 'Paris', when: { to: 2, from: 1 } } },
        { name: 'now', arguments: {} },
      ],
    });
    expect(text).toBe(
      'Let me check.\n\n{"tool_calls":[{"name":"get_weather","arguments":{"city":"Paris","unit":"c","when":{"from":1,"to":2}}},{"name":"now","arguments":{}}]}',
    );
    const line = text.split('\n').at(-1) ?? '';
    expect(JSON.parse(line)).toEqual({
      tool_calls: [
        { name: 'get_weather', arguments: { city: 'Paris', unit: 'c', when: { from: 1, to: 2 } } },
        { name: 'now', arguments: {} },
      ],
    });
  });

  it('leaves out the provider id, and shows a reply that only calls tools as the line alone', () => {
    const call = { id: 'toolu_01', name: 'lookup', arguments: { q: 'x"y' } };
    expect(outputText({ text: '', toolCalls: [call] })).toBe(
      '{"tool_calls":[{"name":"lookup","arguments":{"q":"x\\"y"}}]}',
    );
  });

  it('gives equal calls equal text whatever the order their arguments came in', () => {
    const a = outputText({
      text: 't',
      toolCalls: [{ name: 'f', arguments: { b: [{ y: 1, x: 2 }], a: null } }],
    });
    const b = outputText({
      text: 't',
      toolCalls: [{ name: 'f', arguments: { a: null, b: [{ x: 2, y: 1 }] } }],
    });
    expect(a).toBe(b);
  });
});
