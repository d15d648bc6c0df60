import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { extractJsonObject, parseModelJson } from '../../src/parse-model-json.js';

describe('parseModelJson', () => {
  const Shape = z.object({ a: z.number() });

  it('finds the object in bare, fenced or chatty replies', () => {
    expect(extractJsonObject('{"a":1}')).toEqual({ a: 1 });
    expect(extractJsonObject('```json\n{"a":2}\n```')).toEqual({ a: 2 });
    expect(extractJsonObject('Here it is: {"a":3} — hope it helps')).toEqual({ a: 3 });
    expect(extractJsonObject('no json')).toBeUndefined();
  });

  it('reports a reply that does not fit the schema', () => {
    expect(parseModelJson('{"a":"x"}', Shape)).toMatchObject({ ok: false, problem: /a:/ });
    expect(parseModelJson('{"a":5}', Shape)).toEqual({ ok: true, value: { a: 5 } });
  });
});

describe('parseModelJson on model habits', () => {
  const Shape = z.object({ a: z.string() });

  it('takes raw line breaks inside strings, and refuses a reply holding two objects', () => {
    expect(parseModelJson('{"a": "two\nlines"}', Shape)).toEqual({ ok: true, value: { a: 'two\nlines' } });
    expect(parseModelJson('e.g. {"a": "x"}, so: {"a": "y"}', Shape)).toMatchObject({
      ok: false,
      problem: /2 JSON objects/,
    });
    expect(extractJsonObject('the {{topic}} part, then {"a": "z"}')).toEqual({ a: 'z' });
  });
});
