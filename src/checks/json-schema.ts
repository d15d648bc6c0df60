/**
 * The optional JSON schema of `is-json` / `contains-json`: an object (or boolean) in `value`,
 * or a string holding one as JSON/YAML. Compiled with ajv, lenient about unknown keywords and
 * formats as promptfoo is, and cached so thousands of outputs share one compilation.
 *
 * A schema with `pattern` or `patternProperties` matches the model's strings against the
 * user's regexes: such a schema is validated within a time limit (src/checks/bounded-run.ts),
 * like a `regex` check; other schemas run directly.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { formatKeyPath } from '../experiment/key-path.js';
import { parseYamlSource } from '../experiment/yaml-source.js';
import { runWithin } from './bounded-run.js';
import { findOversizedEnum, MAX_ENUM_VALUES } from './enum-size.js';
import { isPlainObject } from './check-values.js';

export type SchemaVerdict =
  | { valid: true }
  | { valid: false; errors: string }
  /** The validation itself failed (ran out of time, or threw): the check cannot judge the output. */
  | { valid: false; error: string };

export type SchemaValidator = (data: unknown, timeoutMs: number) => SchemaVerdict;

const USER_REGEX_KEYWORDS = /"(?:pattern|patternProperties)":/;

const compiled = new Map<string, SchemaValidator | Error>();

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The schema a `value` denotes, or an Error saying why it is not one. */
export function readSchema(value: unknown): object | boolean | Error {
  let schema = value;
  if (typeof value === 'string') {
    if (value.startsWith('file://')) {
      return new Error('schema files (file://) are not supported here: write the schema inline under value');
    }
    // The experiment's one YAML loader: it refuses alias cycles and runaway nesting, which
    // would otherwise hang or overflow ajv.
    const source = parseYamlSource('value', value);
    const error = source.problems.find((p) => p.severity === 'error');
    if (error !== undefined) return new Error(`value is not a JSON schema: ${error.message}`);
    schema = source.data;
  }
  if (typeof schema === 'boolean' || isPlainObject(schema)) return schema;
  return new Error('value must be a JSON schema object');
}

/** A validator for the schema, or the error ajv raised compiling it (message kept for the user). */
export function compileSchema(schema: object | boolean): SchemaValidator | Error {
  const oversized = findOversizedEnum(schema);
  if (oversized)
    return new Error(
      `\`${formatKeyPath(oversized.path)}\` lists ${oversized.count} values, more than the ${MAX_ENUM_VALUES} allowed in one enum`,
    );
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached !== undefined) return cached;
  let result: SchemaValidator | Error;
  try {
    // One ajv per schema: two schemas sharing an `$id` must not collide in one instance.
    const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
    const validate: ValidateFunction = ajv.compile(schema);
    const check = (data: unknown): SchemaVerdict =>
      validate(data) ? { valid: true } : { valid: false, errors: ajv.errorsText(validate.errors) };
    result = USER_REGEX_KEYWORDS.test(key)
      ? (data, timeoutMs) => {
          const bounded = runWithin(() => check(data), timeoutMs);
          if (bounded.kind === 'done') return bounded.value;
          return {
            valid: false,
            error:
              bounded.kind === 'timeout'
                ? `validating against the schema did not finish within ${timeoutMs / 1000}s: one of its patterns backtracks too much; avoid nested or overlapping repeats such as (a+)+`
                : `the schema could not be applied: ${bounded.message}`,
          };
        }
      : (data) => check(data);
  } catch (error) {
    result = toError(error);
  }
  compiled.set(key, result);
  return result;
}

/** The validator for a check's `value`, undefined when there is no schema, or the reason it is unusable. */
export function schemaValidatorFor(value: unknown): SchemaValidator | Error | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const schema = readSchema(value);
  return schema instanceof Error ? schema : compileSchema(schema);
}
