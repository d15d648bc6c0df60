/**
 * `tools: file` (docs/design/prompt-shapes.md): the tool definitions offered to the generator, a
 * JSON or YAML list of `{name, description?, parameters}`. Every entry is checked where it sits in
 * that file: the shape, a unique name, and parameters that compile as a JSON Schema.
 */
import type { Problem } from '../errors.js';
import { compileSchema } from '../checks/json-schema.js';
import type { ToolDefinition } from '../providers/types.js';
import { formatKeyPath } from './key-path.js';
import { readReferencedFile, type Where } from './referenced-file.js';
import { ToolEntry } from './schema.js';
import type { PromptShape } from './types.js';
import { locate, parseYamlSource } from './yaml-source.js';
import { describeIssues } from './zod-problems.js';

export async function readTools(
  value: string,
  where: Where,
  problems: Problem[],
): Promise<PromptShape['tools'] | undefined> {
  const read = await readReferencedFile(['tools'], 'tools', value, where, problems);
  if (!read) return undefined;
  const file = read.path;
  const source = parseYamlSource(file, read.text);
  problems.push(...source.problems);
  if (!source.usable) return undefined;
  if (!Array.isArray(source.data) || source.data.length === 0) {
    problems.push({
      severity: 'error',
      location: { file, ...locate(source, []) },
      keyPath: '',
      message: 'a tools file must be a non-empty list of tools',
      hint: 'e.g. [{"name": "lookup", "description": "…", "parameters": {"type": "object", "properties": {…}}}]',
    });
    return undefined;
  }
  const before = problems.length;
  const definitions: ToolDefinition[] = [];
  const seen = new Map<string, number>();
  for (const [i, raw] of source.data.entries()) {
    const at = (path: (string | number)[]) => locate(source, [i, ...path]);
    const parsed = ToolEntry.safeParse(raw);
    if (!parsed.success) {
      problems.push(
        ...describeIssues(parsed.error.issues, {
          file,
          schema: ToolEntry,
          data: raw,
          locate: at,
          prefix: [i],
        }),
      );
      continue;
    }
    const tool = parsed.data;
    const first = seen.get(tool.name);
    if (first !== undefined)
      problems.push({
        severity: 'error',
        location: { file, ...at(['name']) },
        keyPath: formatKeyPath([i, 'name']),
        message: `duplicate tool name \`${tool.name}\` (first in entry ${first})`,
        hint: 'the model calls a tool by its name, so names must be unique',
      });
    else seen.set(tool.name, i);
    const compiled = compileSchema(tool.parameters);
    if (compiled instanceof Error)
      problems.push({
        severity: 'error',
        location: { file, ...at(['parameters']) },
        keyPath: formatKeyPath([i, 'parameters']),
        message: `parameters of \`${tool.name}\` is not a valid JSON Schema: ${compiled.message}`,
      });
    definitions.push({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.parameters,
    });
  }
  return problems.length === before ? { path: file, definitions } : undefined;
}
