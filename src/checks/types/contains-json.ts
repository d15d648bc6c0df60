/**
 * `contains-json`: the output holds a JSON object somewhere (a ```json fence or a bare
 * `{…}` span) and, when `value` holds a schema, at least one of them conforms to it.
 * Objects only, as promptfoo extracts them, so an imported suite gets promptfoo's verdicts:
 * a bare list such as `[1, 2, 3]` fails, while the objects inside a list are found.
 */
import { MATCH_TIMEOUT_S } from '../bounded-run.js';
import type { CheckDefinition } from '../check-definition.js';
import { errored, failed, passed } from '../check-result.js';
import { findJsonValues } from '../../find-json.js';
import { schemaValidatorFor } from '../json-schema.js';
import { describeSchema, validateSchemaValue } from './is-json.js';

export const containsJsonCheck: CheckDefinition = {
  validate(entry) {
    return validateSchemaValue(entry.value);
  },
  describe(entry) {
    return describeSchema(entry.value);
  },
  run(output, entry) {
    const validator = schemaValidatorFor(entry.value);
    if (validator instanceof Error) return errored(`invalid JSON schema: ${validator.message}`);
    const values = findJsonValues(output, { objectsOnly: true });
    if (values.length === 0)
      return failed('output contains no JSON object (a bare list does not count, as in promptfoo)');
    if (validator === undefined)
      return passed(`output contains JSON (${values.length} value${values.length === 1 ? '' : 's'})`);
    const timeoutMs = (entry.timeout_s ?? MATCH_TIMEOUT_S) * 1000;
    let lastErrors = '';
    for (const value of values) {
      const result = validator(value, timeoutMs);
      if (result.valid) return passed('output contains JSON matching the schema');
      // A schema that ran out of time on one value would on the next: say so at once.
      if ('error' in result) return errored(result.error);
      lastErrors = result.errors;
    }
    return failed(`output contains JSON, but none matches the schema: ${lastErrors}`);
  },
};
