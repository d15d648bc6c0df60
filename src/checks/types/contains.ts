/** `contains` / `icontains`: the output holds the value as a substring (case-insensitively for `icontains`). */
import type { CheckDefinition } from '../check-definition.js';
import { verdict } from '../check-result.js';
import { quote, readText, shorten } from '../check-values.js';

function makeContainsCheck(type: string, ignoreCase: boolean): CheckDefinition {
  const fold = (text: string): string => (ignoreCase ? text.toLowerCase() : text);
  return {
    validate(entry) {
      const text = readText(entry.value);
      if (text === undefined || text === '') {
        return [{ keyPath: 'value', message: `${type} needs a non-empty string or number value` }];
      }
      return [];
    },
    describe(entry) {
      return shorten(readText(entry.value) ?? '');
    },
    run(output, entry) {
      const text = readText(entry.value) ?? '';
      const found = fold(output).includes(fold(text));
      return verdict(found, `output ${found ? 'contains' : 'does not contain'} ${quote(text)}`);
    },
  };
}

export const containsCheck = makeContainsCheck('contains', false);
export const icontainsCheck = makeContainsCheck('icontains', true);
