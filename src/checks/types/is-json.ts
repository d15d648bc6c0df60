/** `is-json`: the whole output parses as JSON and, when `value` holds a schema, conforms to it. */
import { MATCH_TIMEOUT_S } from '../bounded-run.js';
import type { CheckDefinition, CheckIssue } from '../check-definition.js';
import { errored, failed, passed } from '../check-result.js';
import { shorten } from '../check-values.js';
import { schemaValidatorFor } from '../json-schema.js';

export function validateSchemaValue(value: unknown): CheckIssue[] {
  const validator = schemaValidatorFor(value);
  if (validator instanceof Error) {
    return [
      {
        keyPath: 'value',
        message: `invalid JSON schema: ${validator.message}`,
        hint: 'value is optional; when given it must be a JSON schema (draft-07)',
      },
    ];
  }
  return [];
}

export function describeSchema(value: unknown): string {
  return value === undefined || value === null || value === ''
    ? ''
    : shorten(`schema ${JSON.stringify(value)}`);
}

export const isJsonCheck: CheckDefinition = {
  validate(entry) {
    return validateSchemaValue(entry.value);
  },
  describe(entry) {
    return describeSchema(entry.value);
  },
  run(output, entry) {
    let data: unknown;
    try {
      data = JSON.parse(output);
    } catch (error) {
      return failed(`output is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const validator = schemaValidatorFor(entry.value);
    if (validator === undefined) return passed('output is valid JSON');
    if (validator instanceof Error) return errored(`invalid JSON schema: ${validator.message}`);
    const result = validator(data, (entry.timeout_s ?? MATCH_TIMEOUT_S) * 1000);
    if (result.valid) return passed('output is valid JSON matching the schema');
    if ('error' in result) return errored(result.error);
    return failed(`output JSON does not match the schema: ${result.errors}`);
  },
};
