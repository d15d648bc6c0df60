import { describe, expect, it } from 'vitest';
import { measureEditDistance, suggestNearest } from '../../src/did-you-mean.js';

describe('measureEditDistance', () => {
  it('counts insertions, deletions, substitutions and transpositions', () => {
    expect(measureEditDistance('model', 'model')).toBe(0);
    expect(measureEditDistance('modle', 'model')).toBe(1);
    expect(measureEditDistance('descripton', 'description')).toBe(1);
    expect(measureEditDistance('temprature', 'temperature')).toBe(1);
    expect(measureEditDistance('', 'abc')).toBe(3);
    expect(measureEditDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('suggestNearest', () => {
  const keys = ['name', 'description', 'prompt', 'cases', 'rubric', 'models', 'checks'];

  it('suggests the closest key for a near miss, ignoring case', () => {
    expect(suggestNearest('descripton', keys)).toBe('description');
    expect(suggestNearest('Prompt', keys)).toBe('prompt');
    expect(suggestNearest('case', keys)).toBe('cases');
  });

  it('suggests nothing for a word far from every candidate', () => {
    expect(suggestNearest('budgett_limit', keys)).toBeUndefined();
    expect(suggestNearest('xy', keys)).toBeUndefined();
  });
});
