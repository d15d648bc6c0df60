/**
 * A promptfoo test's vars as autoresearch case vars: `file://` values are read into the case,
 * lists expand into one case per combination (as promptfoo does), objects become JSON text,
 * and values only a script could produce are reported.
 */
import { AutoresearchError } from '../../errors.js';
import { addNote, addUnmapped, type Findings } from './findings.js';
import { isFileRef, parseFileRef } from './file-ref.js';
import { parseDataText, readTextFile } from './read-files.js';
import { isRecord } from '../../is-record.js';

export type CaseVar = string | number | boolean;

/** Combinations beyond this are not expanded: the first value of each list is used instead. */
export const MAX_COMBINATIONS = 200;

const BINARY_EXTS = new Set([
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
  '.bmp',
  '.pdf',
  '.mp3',
  '.wav',
  '.mp4',
]);
const SCRIPT_EXTS = new Set(['.js', '.mjs', '.cjs', '.ts', '.py']);

interface Context {
  configDir: string;
  displayRoot: string;
}

/** A test's `vars`: a mapping, or a `file://` path to a YAML/JSON mapping. */
export async function readVarsField(
  raw: unknown,
  where: string,
  ctx: Context,
  findings: Findings,
): Promise<Record<string, unknown>> {
  if (raw === undefined || raw === null) return {};
  if (isRecord(raw)) return raw;
  if (isFileRef(raw)) {
    const ref = parseFileRef(raw, ctx.configDir);
    const data = parseDataText(
      await readTextFile(ref.absolute, 'the vars file', ctx.displayRoot),
      ref.ext,
      ref.path,
    );
    if (isRecord(data)) return data;
    throw new AutoresearchError(
      'E_CONFIG',
      `the vars file ${ref.path} (${where}) is not a mapping of names to values`,
      {
        hint: 'a vars file holds one mapping, e.g. `topic: billing`',
      },
    );
  }
  addUnmapped(findings, '`vars` that are not a mapping', where, 'vars must map names to values');
  return {};
}

async function resolveOne(
  name: string,
  value: unknown,
  where: string,
  ctx: Context,
  findings: Findings,
): Promise<CaseVar | CaseVar[]> {
  if (typeof value === 'string' && isFileRef(value)) {
    const ref = parseFileRef(value, ctx.configDir);
    if (BINARY_EXTS.has(ref.ext) || SCRIPT_EXTS.has(ref.ext) || ref.glob) {
      const why = SCRIPT_EXTS.has(ref.ext)
        ? 'promptfoo runs the script to compute the value; autoresearch cases hold fixed values'
        : ref.glob
          ? 'globs are not expanded'
          : 'autoresearch sends text prompts only';
      addUnmapped(findings, `var \`${name}\` from \`${ref.path}\``, where, `${why}; the var was left empty`);
      return '';
    }
    const text = await readTextFile(ref.absolute, `the file for var \`${name}\``, ctx.displayRoot);
    addNote(
      findings,
      'vars given as file:// paths were read into cases.yaml, so the cases no longer follow those files',
    );
    return text.replace(/\r?\n$/, '');
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) {
    const items = await Promise.all(value.map((item) => resolveOne(name, item, where, ctx, findings)));
    return items.map((item) => (Array.isArray(item) ? JSON.stringify(item) : item));
  }
  addNote(findings, 'vars holding objects were written as JSON text');
  return JSON.stringify(value);
}

/** One var map per combination of list-valued vars (a single map when none is a list). */
export async function expandVars(
  vars: Record<string, unknown>,
  where: string,
  ctx: Context,
  findings: Findings,
): Promise<Record<string, CaseVar>[]> {
  const resolved: [string, CaseVar | CaseVar[]][] = [];
  for (const [name, value] of Object.entries(vars))
    resolved.push([name, await resolveOne(name, value, where, ctx, findings)]);
  const lists = resolved.filter(([, v]) => Array.isArray(v) && v.length > 0) as [string, CaseVar[]][];
  const total = lists.reduce((n, [, v]) => n * v.length, 1);
  const base: Record<string, CaseVar> = {};
  for (const [name, value] of resolved) base[name] = Array.isArray(value) ? (value[0] ?? '') : value;
  if (lists.length === 0) return [base];
  if (total > MAX_COMBINATIONS) {
    addUnmapped(
      findings,
      `list-valued vars making ${total} combinations`,
      where,
      `more than ${MAX_COMBINATIONS} cases from one test; only the first value of each list was used`,
    );
    return [base];
  }
  addNote(
    findings,
    'tests whose vars hold lists were expanded into one case per combination, as promptfoo runs them',
  );
  let combos: Record<string, CaseVar>[] = [base];
  for (const [name, values] of lists)
    combos = combos.flatMap((combo) => values.map((value) => ({ ...combo, [name]: value })));
  return combos;
}
