/** `regex`: the output matches a JavaScript pattern (a plain pattern string, no flags, as in promptfoo). */
import type { CheckDefinition } from '../check-definition.js';
import { errored, verdict } from '../check-result.js';
import { shorten } from '../check-values.js';

function compile(pattern: string): RegExp | Error {
  try {
    return new RegExp(pattern);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

export const regexCheck: CheckDefinition = {
  validate(entry) {
    if (typeof entry.value !== 'string' || entry.value === '') {
      return [
        { keyPath: 'value', message: 'regex needs a pattern string', hint: 'e.g. value: "^Subject: .+"' },
      ];
    }
    const compiled = compile(entry.value);
    if (compiled instanceof Error) {
      return [
        {
          keyPath: 'value',
          message: compiled.message,
          hint: 'write a JavaScript pattern without slashes or flags; in YAML, quote it and double backslashes',
        },
      ];
    }
    return [];
  },
  describe(entry) {
    return shorten(String(entry.value ?? ''));
  },
  run(output, entry) {
    const pattern = String(entry.value);
    const compiled = compile(pattern);
    if (compiled instanceof Error) return errored(`invalid regex: ${compiled.message}`);
    const ok = compiled.test(output);
    return verdict(ok, `output ${ok ? 'matches' : 'does not match'} /${shorten(pattern, 60)}/`);
  },
};
