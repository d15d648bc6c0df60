/** `starts-with`: the output begins with the value, exactly (no trimming, as in promptfoo). */
import type { CheckDefinition } from '../check-definition.js';
import { verdict } from '../check-result.js';
import { quote, readText, shorten } from '../check-values.js';

export const startsWithCheck: CheckDefinition = {
  validate(entry) {
    const text = readText(entry.value);
    if (text === undefined || text === '') {
      return [{ keyPath: 'value', message: 'starts-with needs a non-empty string value' }];
    }
    return [];
  },
  describe(entry) {
    return shorten(readText(entry.value) ?? '');
  },
  run(output, entry) {
    const text = readText(entry.value) ?? '';
    const ok = output.startsWith(text);
    return verdict(
      ok,
      ok ? `output starts with ${quote(text)}` : `output does not start with ${quote(text)}`,
    );
  },
};
