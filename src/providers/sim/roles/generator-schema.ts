/**
 * A value for a JSON Schema, for structured output and tool arguments
 * (docs/design/prompt-shapes.md): what a model under constrained decoding returns, so it always has
 * the schema's shape. Objects get their required properties (every property when none is required),
 * values guessed from the case's text by key name as for a prompt's JSON instruction
 * (generator-json.ts), then fitted to the schema's type, enum, bounds and lengths. With a document
 * reader (document-fields.ts), what the document says comes first: dates, amounts, names, line
 * items, ids from tool results. Local `$ref`s (`#/$defs/…`, `#/definitions/…`) are followed; a
 * `pattern` is not honoured (docs/sim.md).
 */
import { isRecord } from '../../../is-record.js';
import type { Rng } from '../prng.js';
import type { FieldReader } from './document-fields.js';
import { valueFor } from './generator-json.js';
import type { PromptDetails } from './prompt-details.js';

type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;

function resolve(schema: unknown, root: Schema): Schema {
  let current = schema;
  for (let hops = 0; hops < MAX_DEPTH && isRecord(current) && typeof current['$ref'] === 'string'; hops++) {
    const path = current['$ref']
      .replace(/^#\/?/, '')
      .split('/')
      .filter((part) => part !== '');
    current = path.reduce<unknown>((node, part) => (isRecord(node) ? node[part] : undefined), root);
  }
  return isRecord(current) ? current : {};
}

function typeOf(schema: Schema): string | undefined {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') ?? type[0];
  if (isRecord(schema['properties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  return undefined;
}

function numeric(value: unknown, rng: Rng): number {
  return typeof value === 'number' ? value : rng.int(1, 9);
}

function bounded(value: number, schema: Schema, integer: boolean): number {
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : -Infinity;
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : Infinity;
  const clamped = Math.min(max, Math.max(min, value));
  return integer ? Math.min(Math.floor(max), Math.max(Math.ceil(min), Math.round(clamped))) : clamped;
}

function sized(text: string, schema: Schema): string {
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  return text.padEnd(min, '.').slice(0, max);
}

function singular(key: string): string {
  return key.endsWith('s') && key.length > 3 ? key.slice(0, -1) : key;
}

interface Context {
  root: Schema;
  details: PromptDetails;
  reader?: FieldReader;
}

function allowsNull(schema: Schema): boolean {
  return schema['type'] === 'null' || (Array.isArray(schema['type']) && schema['type'].includes('null'));
}

function build(raw: unknown, key: string, context: Context, rng: Rng, depth: number): unknown {
  const schema = resolve(raw, context.root);
  if ('const' in schema) return schema['const'];
  const choices = Array.isArray(schema['enum']) ? (schema['enum'] as unknown[]) : undefined;
  if (choices !== undefined && choices.length > 0) {
    const options = choices.map((choice) => String(choice));
    const picked = String(valueFor(key, { keys: [key], options: { [key]: options } }, context.details, rng));
    return choices[Math.max(0, options.indexOf(picked))];
  }
  const branches = schema['anyOf'] ?? schema['oneOf'] ?? schema['allOf'];
  if (Array.isArray(branches) && branches.length > 0 && typeOf(schema) === undefined)
    return build(branches[0], key, context, rng, depth + 1);
  const read = context.reader?.value(key);
  if (read === null && allowsNull(schema)) return null;
  const guess = (): unknown => read ?? valueFor(key, { keys: [key], options: {} }, context.details, rng);
  switch (typeOf(schema)) {
    case 'object': {
      const properties = isRecord(schema['properties']) ? schema['properties'] : {};
      const required = Array.isArray(schema['required'])
        ? schema['required'].filter((name): name is string => typeof name === 'string')
        : Object.keys(properties);
      if (depth >= MAX_DEPTH) return {};
      return Object.fromEntries(
        required.map((name) => [
          name,
          build(properties[name] ?? {}, name, context, rng.fork(name), depth + 1),
        ]),
      );
    }
    case 'array': {
      const rows = context.reader?.rows(key) ?? [];
      const min = typeof schema['minItems'] === 'number' ? schema['minItems'] : 1;
      const max = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : Math.max(min, rows.length, 1);
      const count = depth >= MAX_DEPTH ? 0 : Math.min(max, Math.max(min, rows.length, 1));
      return Array.from({ length: count }, (_, i) => {
        const row = rows[i];
        // A row read from the document fills its own item; a padded one is guessed.
        const itemContext: Context =
          row === undefined ? { root: context.root, details: context.details } : { ...context, reader: row };
        return build(schema['items'] ?? {}, singular(key), itemContext, rng.fork(`${i}`), depth + 1);
      });
    }
    case 'integer':
      return bounded(numeric(guess(), rng), schema, true);
    case 'number':
      return bounded(numeric(guess(), rng), schema, false);
    case 'boolean': {
      const value = guess();
      return typeof value === 'boolean' ? value : rng.chance(0.5);
    }
    case 'null':
      return null;
    default: {
      const value = guess();
      return sized(Array.isArray(value) ? value.join(', ') : String(value), schema);
    }
  }
}

/** A value of `schema` (a whole JSON Schema: its `$ref`s resolve against it). */
export function valueFromSchema(
  schema: Record<string, unknown>,
  details: PromptDetails,
  rng: Rng,
  reader?: FieldReader,
): unknown {
  return build(schema, 'answer', { root: schema, details, ...(reader ? { reader } : {}) }, rng, 0);
}
