import { describe, expect, it } from 'vitest';
import { assertionFromString } from '../../../../src/import/promptfoo/assertion-from-string.js';

describe('assertionFromString (promptfoo CSV __expected cells)', () => {
  it.each([
    ['contains: Paris', { type: 'contains', value: 'Paris' }],
    ['not-icontains: allegedly', { type: 'not-icontains', value: 'allegedly' }],
    ['icontains-any: bee, bees , hive', { type: 'icontains-any', value: ['bee', 'bees', 'hive'] }],
    ['not-contains-all:a,b', { type: 'not-contains-all', value: ['a', 'b'] }],
    ['starts-with(0.9): Dear', { type: 'starts-with', value: 'Dear', threshold: 0.9 }],
    ['is-json', { type: 'is-json' }],
    ['regex: ^\\d+$', { type: 'regex', value: '^\\d+$' }],
    ['similar(0.8): The harbour closed', { type: 'similar', value: 'The harbour closed', threshold: 0.8 }],
    ['javascript: output.length < 90', { type: 'javascript', value: 'output.length < 90' }],
    ['fn: output.includes("x")', { type: 'javascript', value: 'output.includes("x")' }],
    ['eval:output === "a"', { type: 'javascript', value: 'output === "a"' }],
    ['grade: mentions the date', { type: 'llm-rubric', value: 'mentions the date' }],
    ['llm-rubric: is polite', { type: 'llm-rubric', value: 'is polite' }],
    ['python: len(output) < 5', { type: 'python', value: 'len(output) < 5' }],
    ['file://checks/len.py', { type: 'python', value: 'file://checks/len.py' }],
    ['file://checks/len.js:short', { type: 'javascript', value: 'file://checks/len.js:short' }],
  ])('%s', (cell, expected) => {
    expect(assertionFromString(cell)).toEqual(expected);
  });

  it('treats anything else as the exact expected output', () => {
    expect(assertionFromString('Bonjour le monde')).toEqual({ type: 'equals', value: 'Bonjour le monde' });
    expect(assertionFromString('containsX: y')).toEqual({ type: 'equals', value: 'containsX: y' });
  });
});
