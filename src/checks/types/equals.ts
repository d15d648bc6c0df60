/** `equals`: the output is exactly the value (no trimming, as in promptfoo); an object or list value compares as JSON. */
import { isDeepStrictEqual } from 'node:util';
import type { CheckDefinition } from '../check-definition.js';
import { failed, verdict } from '../check-result.js';
import { quote, readText, shorten } from '../check-values.js';

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export const equalsCheck: CheckDefinition = {
  validate(entry) {
    if (entry.value === undefined || entry.value === null) {
      return [{ keyPath: 'value', message: 'equals needs a value: the exact expected output' }];
    }
    if (readText(entry.value) === undefined && typeof entry.value !== 'object') {
      return [{ keyPath: 'value', message: 'equals needs a string, a number, or a JSON object/list' }];
    }
    return [];
  },
  describe(entry) {
    return shorten(readText(entry.value) ?? JSON.stringify(entry.value));
  },
  run(output, entry) {
    const text = readText(entry.value);
    if (text !== undefined) {
      return verdict(
        output === text,
        output === text ? `output equals ${quote(text)}` : `output differs from ${quote(text)}`,
      );
    }
    const parsed = parseJson(output);
    if (!parsed.ok) return failed('output is not JSON, so it cannot equal the expected JSON value');
    const same = isDeepStrictEqual(parsed.value, entry.value);
    return verdict(
      same,
      same ? 'output JSON equals the expected value' : 'output JSON differs from the expected value',
    );
  },
};
