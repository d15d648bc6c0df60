import { describe, expect, it } from 'vitest';
import {
  lastLines,
  parseDescription,
  readScriptResult,
} from '../../../../src/checks/javascript/script-result.js';

describe('readScriptResult', () => {
  it('reads booleans, numbers and objects as promptfoo does', () => {
    expect(readScriptResult({ kind: 'boolean', value: false }, undefined)).toEqual({
      pass: false,
      score: 0,
      reason: 'returned false',
    });
    expect(readScriptResult({ kind: 'number', value: '0.3' }, 0.3)).toMatchObject({ pass: true, score: 0.3 });
    expect(readScriptResult({ kind: 'number', value: '1.5' }, undefined)).toMatchObject({
      pass: true,
      score: 1,
    });
    expect(readScriptResult({ kind: 'object', pass: true, reason: '  ' }, undefined)).toEqual({
      pass: true,
      score: 1,
      reason: 'returned pass=true',
    });
    expect(readScriptResult({ kind: 'object', pass: true, score: '0.2', reason: 'meh' }, 0.5)).toEqual({
      pass: false,
      score: 0.2,
      reason: 'score 0.2 is below the threshold 0.5: meh',
    });
  });

  it('fails with error on what it cannot read', () => {
    expect(readScriptResult({ kind: 'number', value: 'Infinity' }, undefined)).toMatchObject({ error: true });
    expect(readScriptResult({ kind: 'object', pass: true, score: 'abc' }, undefined)).toMatchObject({
      error: true,
    });
    expect(readScriptResult({ kind: 'other', type: 'symbol' }, undefined).reason).toMatch(/^returned symbol/);
  });
});

describe('parseDescription', () => {
  it('accepts only a well-formed JSON description', () => {
    expect(parseDescription('{"kind":"boolean","value":true}')).toEqual({ kind: 'boolean', value: true });
    expect(parseDescription('{"kind":"boolean","value":"yes"}')).toBeUndefined();
    expect(parseDescription('not json')).toBeUndefined();
    expect(parseDescription(undefined)).toBeUndefined();
  });
});

describe('lastLines', () => {
  it('keeps the last non-empty lines within a size', () => {
    expect(lastLines('a\n\nb\nc\r\nd\ne\nf\n', 3)).toBe('d\ne\nf');
    expect(lastLines('x'.repeat(1000), 5, 10)).toBe(`…${'x'.repeat(10)}`);
  });
});
