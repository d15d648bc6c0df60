import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseModelJson } from '../../src/parse-model-json.js';

describe('parseModelJson', () => {
  const Shape = z.object({ a: z.number() });

  it('finds the object in bare, fenced or chatty replies', () => {
    expect(parseModelJson('{"a":1}', Shape)).toEqual({ ok: true, value: { a: 1 } });
    expect(parseModelJson('```json\n{"a":2}\n```', Shape)).toEqual({ ok: true, value: { a: 2 } });
    expect(parseModelJson('Here it is: {"a":3} — hope it helps', Shape)).toEqual({
      ok: true,
      value: { a: 3 },
    });
    expect(parseModelJson('no json', Shape)).toEqual({
      ok: false,
      problem: 'the reply holds no JSON object',
    });
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
    expect(parseModelJson('the {{topic}} part, then {"a": "z"}', Shape)).toEqual({
      ok: true,
      value: { a: 'z' },
    });
  });
});
