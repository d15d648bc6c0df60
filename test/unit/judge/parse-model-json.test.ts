import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { extractJsonObject, parseModelJson } from '../../../src/judge/parse-model-json.js';

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
