/**
 * `output: { json_schema: file }` (docs/design/prompt-shapes.md): the JSON Schema the generator's
 * answers follow, read and compiled once so a broken schema is a validate error, not a failed API
 * call at iteration 1. Its name (providers require one) is the file's base name.
 */
import { basename, extname } from 'node:path';
import type { Problem } from '../errors.js';
import { compileSchema } from '../checks/json-schema.js';
import { isRecord } from '../is-record.js';
import { findJsonTooDeep } from './json-depth.js';
import { readReferencedFile, type Where } from './referenced-file.js';
import { lineOf } from './template.js';
import type { PromptShape } from './types.js';
import { formatKeyPath } from './key-path.js';
import { MAX_YAML_DEPTH } from './yaml-expansion.js';

export async function readOutputSchema(
  value: string,
  where: Where,
  problems: Problem[],
): Promise<PromptShape['output'] | undefined> {
  const read = await readReferencedFile(
    ['output', 'json_schema'],
    'output.json_schema',
    value,
    where,
    problems,
  );
  if (!read) return undefined;
  const fail = (message: string, line = 1, hint?: string): undefined => {
    problems.push({
      severity: 'error',
      location: { file: read.path, line, col: 1 },
      keyPath: '',
      message,
      ...(hint === undefined ? {} : { hint }),
    });
    return undefined;
  };
  let schema: unknown;
  try {
    schema = JSON.parse(read.text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    return fail(
      `not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
      position ? lineOf(read.text, Number(position[1])) : 1,
    );
  }
  const deep = findJsonTooDeep(read.text, MAX_YAML_DEPTH);
  if (deep) {
    const at = positionAt(read.text, deep.offset);
    problems.push({
      severity: 'error',
      location: { file: read.path, ...at },
      keyPath: formatKeyPath(deep.path),
      message: `nested more than ${MAX_YAML_DEPTH} levels deep`,
      hint: 'the APIs accept far shallower schemas (OpenAI: 10 levels of objects); flatten it (docs/experiment.md, "Limits")',
    });
    return undefined;
  }
  if (!isRecord(schema))
    return fail('a JSON Schema file must hold one object', 1, 'e.g. {"type": "object", "properties": {…}}');
  const compiled = compileSchema(schema);
  if (compiled instanceof Error) return fail(`not a valid JSON Schema: ${compiled.message}`);
  if (schema['type'] !== 'object')
    problems.push({
      severity: 'warning',
      location: { file: read.path, line: 1, col: 1 },
      keyPath: 'type',
      message:
        'the schema\'s root is not `"type": "object"`: OpenAI and Anthropic structured output accept only an object',
      hint: 'wrap the answer in an object, e.g. {"type": "object", "properties": {"answer": …}}',
    });
  return { name: schemaName(read.path), schema, path: read.path };
}

/** `invoice.schema.json` → `invoice_schema`: the APIs take letters, digits, `_` and `-`, 64 at most. */
function schemaName(path: string): string {
  const base = basename(path, extname(path))
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 64);
  return base === '' ? 'output' : base;
}

/** 1-based line and column of an offset. */
function positionAt(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const line = lineOf(text, offset);
  return { line, col: offset - before.lastIndexOf('\n') };
}
