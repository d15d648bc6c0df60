/**
 * A promptfoo provider's `response_format` and `tools` as an experiment's `output:` and
 * `tools:` (docs/design/prompt-shapes.md). promptfoo takes both inline or as `file://` JSON/YAML;
 * `response_format` as OpenAI writes it
 * (`{type: json_schema, json_schema: {name, strict, schema}}`), tools in OpenAI's
 * (`{type: function, function: {…}}`) or Anthropic's (`{name, input_schema}`) format. What has no
 * equivalent (JSON mode without a schema, built-in server tools, a schema that does not compile) is
 * reported with the reason.
 */
import { compileSchema } from '../../checks/json-schema.js';
import { ToolEntry } from '../../experiment/schema.js';
import { isRecord } from '../../is-record.js';
import { isFileRef, parseFileRef } from './file-ref.js';
import { addUnmapped, type Findings } from './findings.js';
import type { RawShape } from './map-provider.js';
import { parseDataText, readTextFile } from './read-files.js';

export interface ProviderShape {
  /** The JSON Schema for `output: { json_schema }`. */
  schema?: Record<string, unknown>;
  tools?: ToolEntry[];
}

interface Context {
  configDir: string;
  displayRoot: string;
}

/** The value itself, or what a `file://` JSON/YAML file holds. */
async function resolveValue(value: unknown, purpose: string, ctx: Context): Promise<unknown> {
  if (!isFileRef(value)) return value;
  const ref = parseFileRef(value, ctx.configDir);
  const text = await readTextFile(ref.absolute, purpose, ctx.displayRoot);
  return parseDataText(text, ref.ext, ref.path);
}

function compiles(schema: Record<string, unknown>): string | undefined {
  const compiled = compileSchema(schema);
  return compiled instanceof Error ? compiled.message : undefined;
}

async function readSchema(
  raw: unknown,
  where: string,
  ctx: Context,
  findings: Findings,
): Promise<Record<string, unknown> | undefined> {
  const at = `${where}.config.response_format`;
  const format = await resolveValue(raw, 'the response_format file', ctx);
  const skip = (why: string): undefined => {
    addUnmapped(findings, 'provider config `response_format`', at, why);
    return undefined;
  };
  if (!isRecord(format)) return skip('neither a response_format object nor a file holding one');
  if (format['type'] === 'text') return undefined;
  if (format['type'] === 'json_object')
    return skip(
      'JSON mode without a schema; add an `is-json` check, or a schema as `output: { json_schema }`',
    );
  // A file may hold the whole response_format or the bare schema.
  const inner = format['type'] === 'json_schema' ? format['json_schema'] : { schema: format };
  const schema = isRecord(inner)
    ? await resolveValue(inner['schema'], 'the response_format schema file', ctx)
    : undefined;
  if (!isRecord(schema)) return skip('a json_schema response_format without a `schema` object');
  const problem = compiles(schema);
  if (problem !== undefined) return skip(`its schema is not a valid JSON Schema: ${problem}`);
  return schema;
}

/** One tool in any of the formats promptfoo accepts, as a `tools:` file entry. */
function toolEntry(raw: unknown): ToolEntry | string {
  if (!isRecord(raw)) return 'neither an OpenAI nor an Anthropic tool definition';
  const fn = raw['type'] === 'function' && isRecord(raw['function']) ? raw['function'] : raw;
  if (raw['type'] !== undefined && raw['type'] !== 'function' && raw['type'] !== 'custom')
    return `a built-in \`${String(raw['type'])}\` tool, which the provider runs itself; autoresearch offers function tools only`;
  const parameters = fn['parameters'] ?? fn['input_schema'] ?? { type: 'object', properties: {} };
  const candidate = {
    name: fn['name'],
    ...(typeof fn['description'] === 'string' ? { description: fn['description'] } : {}),
    parameters,
  };
  const parsed = ToolEntry.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `not a valid tool: ${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}`;
  }
  const problem = compiles(parsed.data.parameters);
  return problem === undefined ? parsed.data : `its parameters are not a valid JSON Schema: ${problem}`;
}

async function readTools(raw: unknown, where: string, ctx: Context, findings: Findings) {
  const at = `${where}.config.tools`;
  const list = await resolveValue(raw, 'the tools file', ctx);
  if (!Array.isArray(list)) {
    addUnmapped(findings, 'provider config `tools`', at, 'neither a list of tools nor a file holding one');
    return undefined;
  }
  const tools: ToolEntry[] = [];
  for (const [i, item] of list.entries()) {
    const tool = toolEntry(item);
    const named = isRecord(item) && isRecord(item['function']) ? item['function'] : item;
    const name = isRecord(named) ? named['name'] : undefined;
    if (typeof tool === 'string')
      addUnmapped(
        findings,
        `the tool ${typeof name === 'string' ? `\`${name}\`` : `#${i + 1}`}`,
        `${at}[${i}]`,
        tool,
      );
    else if (tools.some((t) => t.name === tool.name))
      addUnmapped(findings, `the tool \`${tool.name}\``, `${at}[${i}]`, 'a second tool of the same name');
    else tools.push(tool);
  }
  return tools.length > 0 ? tools : undefined;
}

export async function readProviderShape(
  raw: RawShape,
  where: string,
  ctx: Context,
  findings: Findings,
): Promise<ProviderShape> {
  const schema =
    raw.response_format === undefined
      ? undefined
      : await readSchema(raw.response_format, where, ctx, findings);
  const tools = raw.tools === undefined ? undefined : await readTools(raw.tools, where, ctx, findings);
  return { ...(schema ? { schema } : {}), ...(tools ? { tools } : {}) };
}
