/**
 * `regex`: the output matches a JavaScript pattern (a plain pattern string, no flags, as in
 * promptfoo). The match is bounded in time (`timeout_s`, default 2 s): a pattern that
 * backtracks without end fails the check instead of freezing the run.
 */
import { MATCH_TIMEOUT_S, runWithin } from '../bounded-run.js';
import type { CheckDefinition } from '../check-definition.js';
import { errored, verdict } from '../check-result.js';
import { shorten } from '../check-values.js';

export const REGEX_TIMEOUT_S = MATCH_TIMEOUT_S;

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
    const timeoutS = entry.timeout_s ?? REGEX_TIMEOUT_S;
    const result = runWithin(() => compiled.test(output), timeoutS * 1000);
    if (result.kind === 'timeout') {
      return errored(
        `/${shorten(pattern, 60)}/ did not finish within ${timeoutS}s on this output (${output.length} characters): ` +
          'the pattern backtracks too much; avoid nested or overlapping repeats such as (a+)+ or (.*)*',
      );
    }
    if (result.kind === 'failed') return errored(`the regex could not run: ${result.message}`);
    return verdict(
      result.value,
      `output ${result.value ? 'matches' : 'does not match'} /${shorten(pattern, 60)}/`,
    );
  },
};
