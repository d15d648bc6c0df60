/**
 * `contains-any` / `contains-all` and their case-insensitive `icontains-*` forms. The value is
 * a list, or one comma-separated string (promptfoo's compact form).
 */
import type { CheckDefinition } from '../check-definition.js';
import { verdict } from '../check-result.js';
import { readList, shorten } from '../check-values.js';

function makeListCheck(type: string, mode: 'any' | 'all', ignoreCase: boolean): CheckDefinition {
  const fold = (text: string): string => (ignoreCase ? text.toLowerCase() : text);
  return {
    validate(entry) {
      const items = readList(entry.value);
      if (items === undefined) {
        return [
          {
            keyPath: 'value',
            message: `${type} needs a list of strings (or one comma-separated string)`,
            hint: 'e.g. value: [synergy, leverage]',
          },
        ];
      }
      if (items.length === 0) return [{ keyPath: 'value', message: `${type} needs at least one string` }];
      return [];
    },
    describe(entry) {
      return shorten((readList(entry.value) ?? []).join(', '));
    },
    run(output, entry) {
      const items = readList(entry.value) ?? [];
      const haystack = fold(output);
      const found = items.filter((item) => haystack.includes(fold(item)));
      const missing = items.filter((item) => !haystack.includes(fold(item)));
      const list = (values: string[]): string => values.map((v) => JSON.stringify(v)).join(', ');
      if (mode === 'any') {
        return verdict(
          found.length > 0,
          found.length > 0 ? `output contains ${list(found)}` : `output contains none of ${list(items)}`,
        );
      }
      return verdict(
        missing.length === 0,
        missing.length === 0 ? `output contains all of ${list(items)}` : `output is missing ${list(missing)}`,
      );
    },
  };
}

export const containsAnyCheck = makeListCheck('contains-any', 'any', false);
export const containsAllCheck = makeListCheck('contains-all', 'all', false);
export const icontainsAnyCheck = makeListCheck('icontains-any', 'any', true);
export const icontainsAllCheck = makeListCheck('icontains-all', 'all', true);
