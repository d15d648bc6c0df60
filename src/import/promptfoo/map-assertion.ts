/**
 * promptfoo assertions → autoresearch checks (same names, docs/design/checks.md) or grader
 * expectations (model-graded types). Values are rendered with the case's vars, as promptfoo renders
 * them per test; `file://` values are read, and javascript files are re-pointed from the
 * experiment's folder. Whatever cannot carry its meaning over is reported, never guessed.
 */
import { parse as parseYaml } from 'yaml';
import { isCheckTypeName, parseCheckType, validateCheckEntry } from '../../checks/registry.js';
import { CheckEntry } from '../../experiment/schema.js';
import { EXPECTATION_TYPES, whyUnsupported } from './assertion-types.js';
import { addNote, addUnmapped, type Findings } from './findings.js';
import { isFileRef, parseFileRef, portablePath } from './file-ref.js';
import { renderPlaceholders, usesTemplate } from './nunjucks.js';
import { parseDataText, readTextFile } from './read-files.js';
import { isRecord } from '../../is-record.js';

export interface AssertionContext {
  configDir: string;
  experimentDir: string;
  projectRoot: string;
  displayRoot: string;
  /** The case's vars; undefined for assertions shared by every case (they must not use vars). */
  vars?: Readonly<Record<string, string>>;
}

export interface MappedAssertions {
  checks: CheckEntry[];
  expectations: string[];
}

/** Keys that change what an assertion tests: without them the meaning would silently differ. */
const MEANING_KEYS: Record<string, string> = {
  transform:
    'it transforms the output before testing it, and autoresearch checks test the output as generated',
  contextTransform: 'it transforms the context before testing, which autoresearch does not do',
  config: 'it passes extra configuration to the assertion, which autoresearch checks do not take',
};
const KNOWN_KEYS = new Set(['type', 'value', 'threshold', 'weight', 'metric']);
const DATA_EXTS = new Set(['.json', '.yaml', '.yml']);

/** True when an assertion's value needs the case's vars to be rendered. */
export function assertionUsesVars(raw: unknown): boolean {
  if (!isRecord(raw)) return false;
  const value = raw['value'];
  if (typeof value === 'string') return usesTemplate(value);
  if (Array.isArray(value)) return value.some((v) => typeof v === 'string' && usesTemplate(v));
  if (raw['type'] === 'assert-set' && Array.isArray(raw['assert']))
    return raw['assert'].some(assertionUsesVars);
  return false;
}

type Rendered = { ok: true; value: unknown } | { ok: false; why: string };

function render(value: unknown, ctx: AssertionContext): Rendered {
  const one = (text: string): string | undefined =>
    usesTemplate(text) ? renderPlaceholders(text, ctx.vars ?? {}) : text;
  if (typeof value === 'string') {
    const text = one(value);
    return text === undefined
      ? { ok: false, why: 'its value uses Nunjucks filters or tags, which cannot be rendered here' }
      : { ok: true, value: text };
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => (typeof item === 'string' ? one(item) : item));
    return items.includes(undefined)
      ? { ok: false, why: 'its value uses Nunjucks filters or tags, which cannot be rendered here' }
      : { ok: true, value: items };
  }
  return { ok: true, value };
}

async function readValueFile(reference: string, baseType: string, ctx: AssertionContext): Promise<Rendered> {
  const ref = parseFileRef(reference, ctx.configDir);
  if (ref.glob) return { ok: false, why: 'its value is a glob of files' };
  if (baseType === 'javascript') {
    if (!['.js', '.mjs', '.cjs'].includes(ref.ext))
      return {
        ok: false,
        why: `autoresearch runs javascript check files (.js, .mjs, .cjs), not ${ref.ext || 'this file'}`,
      };
    // Check files resolve from the experiment's folder, promptfoo's from the config's.
    const path = portablePath(ctx.experimentDir, ref.absolute, ctx.projectRoot);
    return { ok: true, value: `file://${path}${ref.functionName ? `:${ref.functionName}` : ''}` };
  }
  const text = await readTextFile(ref.absolute, 'the assertion value file', ctx.displayRoot);
  if (DATA_EXTS.has(ref.ext)) return { ok: true, value: parseDataText(text, ref.ext, ref.path) };
  return { ok: true, value: text.replace(/\r?\n$/, '') };
}

/** is-json / contains-json take their schema inline as an object; promptfoo also allows it as JSON or YAML text. */
function readSchema(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  for (const parse of [JSON.parse, parseYaml] as ((text: string) => unknown)[]) {
    try {
      const parsed = parse(value);
      if (isRecord(parsed)) return parsed;
    } catch {
      // try the next format
    }
  }
  return value;
}

async function mapCheck(
  raw: Record<string, unknown>,
  where: string,
  ctx: AssertionContext,
  out: MappedAssertions,
  findings: Findings,
): Promise<void> {
  const type = raw['type'] as string;
  const { base } = parseCheckType(type);
  const reject = (why: string): void => addUnmapped(findings, `\`${type}\` assertion`, where, why);
  const entry: Record<string, unknown> = { type };
  if (raw['value'] !== undefined) {
    const rendered = isFileRef(raw['value'])
      ? await readValueFile(raw['value'], base, ctx)
      : render(raw['value'], ctx);
    if (!rendered.ok) return reject(rendered.why);
    let value = rendered.value;
    if (base === 'is-json' || base === 'contains-json') value = readSchema(value);
    if (base === 'javascript' && typeof value === 'string' && /\bcontext\.(?!vars\b)[A-Za-z_$]/.test(value)) {
      return reject(
        'its code reads context fields other than context.vars (prompt, test, provider…), which autoresearch checks do not receive',
      );
    }
    entry['value'] = value;
  }
  const { weight, metric, threshold } = raw;
  if (weight !== undefined) {
    if (typeof weight === 'number' && weight >= 0) entry['weight'] = weight;
    else
      addUnmapped(
        findings,
        '`weight` that is not a number >= 0',
        where,
        'autoresearch weights must be numbers >= 0',
      );
  }
  if (typeof metric === 'string' && metric.trim() !== '') entry['name'] = metric.trim();
  if (threshold !== undefined) {
    if (base === 'javascript' && typeof threshold === 'number' && threshold >= 0 && threshold <= 1)
      entry['threshold'] = threshold;
    else
      addUnmapped(
        findings,
        `\`threshold\` on a \`${type}\` assertion`,
        where,
        base === 'javascript'
          ? 'autoresearch thresholds are between 0 and 1'
          : 'this check passes or fails outright, so a threshold has no effect',
      );
  }
  const parsed = CheckEntry.safeParse(entry);
  if (!parsed.success) return reject(parsed.error.issues[0]?.message ?? 'not a valid check');
  const issues = validateCheckEntry(parsed.data);
  if (issues.length > 0) return reject(issues.map((issue) => issue.message).join('; '));
  out.checks.push(parsed.data);
}

function mapExpectation(
  raw: Record<string, unknown>,
  where: string,
  ctx: AssertionContext,
  out: MappedAssertions,
  findings: Findings,
): void {
  const type = raw['type'] as string;
  const { base, negated } = parseCheckType(type);
  const reject = (why: string): void => addUnmapped(findings, `\`${type}\` assertion`, where, why);
  if (negated) {
    reject(
      'an expectation says what a good output does and is passed only with a quote from the output; rephrase it positively',
    );
    return;
  }
  const value = raw['value'];
  const texts =
    typeof value === 'string'
      ? [value]
      : Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? value
        : undefined;
  const rendered = texts === undefined || texts.length === 0 ? undefined : render(texts, ctx);
  if (rendered === undefined || !rendered.ok) {
    reject(rendered?.why ?? 'it has no text to grade against');
    return;
  }
  for (const text of rendered.value as string[]) {
    const trimmed = text.trim();
    if (trimmed === '') continue;
    out.expectations.push(
      base.endsWith('factuality') ? `Agrees with this reference answer: ${trimmed}` : trimmed,
    );
  }
  if (base.endsWith('factuality'))
    addNote(
      findings,
      'factuality assertions became expectations of the form "Agrees with this reference answer: …"',
    );
  for (const key of ['threshold', 'weight', 'metric'] as const) {
    if (raw[key] !== undefined)
      addUnmapped(
        findings,
        `\`${key}\` on a \`${type}\` assertion`,
        where,
        'each expectation passes or fails on its own and counts once',
      );
  }
}

async function mapOne(
  raw: unknown,
  where: string,
  ctx: AssertionContext,
  out: MappedAssertions,
  findings: Findings,
): Promise<void> {
  if (!isRecord(raw) || typeof raw['type'] !== 'string' || raw['type'].trim() === '') {
    addUnmapped(findings, 'an assertion without a `type`', where, 'nothing says what to test');
    return;
  }
  const type = raw['type'];
  if (type === 'assert-set') {
    if (raw['threshold'] !== undefined) {
      addUnmapped(
        findings,
        '`assert-set` with a threshold',
        where,
        'a set that passes when only some of its assertions pass has no equivalent',
      );
      return;
    }
    if (raw['weight'] !== undefined)
      addUnmapped(
        findings,
        '`weight` on an `assert-set`',
        where,
        'its assertions were imported one by one, each with its own weight',
      );
    const children = Array.isArray(raw['assert']) ? raw['assert'] : [];
    for (const [i, child] of children.entries())
      await mapOne(child, `${where}.assert[${i}]`, ctx, out, findings);
    return;
  }
  for (const [key, why] of Object.entries(MEANING_KEYS)) {
    if (raw[key] !== undefined) {
      addUnmapped(findings, `\`${type}\` assertion with \`${key}\``, where, why);
      return;
    }
  }
  for (const key of Object.keys(raw)) {
    if (KNOWN_KEYS.has(key)) continue;
    const why =
      key === 'provider' || key === 'rubricPrompt'
        ? 'the grader is configured once, under models.grader'
        : 'no equivalent setting';
    addUnmapped(findings, `\`${key}\` on a \`${type}\` assertion`, where, why);
  }
  const { base } = parseCheckType(type);
  if (EXPECTATION_TYPES.has(base)) return mapExpectation(raw, where, ctx, out, findings);
  if (isCheckTypeName(base) && base !== 'command') return mapCheck(raw, where, ctx, out, findings);
  addUnmapped(findings, `\`${type}\` assertion`, where, whyUnsupported(base));
}

export interface PlacedAssertion {
  raw: unknown;
  /** e.g. `tests[2].assert[0]` or `defaultTest.assert[1]`. */
  where: string;
}

export function placeAssertions(list: unknown, where: string): PlacedAssertion[] {
  return Array.isArray(list) ? list.map((raw, i) => ({ raw, where: `${where}[${i}]` })) : [];
}

export async function mapAssertions(
  list: readonly PlacedAssertion[],
  ctx: AssertionContext,
  findings: Findings,
): Promise<MappedAssertions> {
  const out: MappedAssertions = { checks: [], expectations: [] };
  for (const { raw, where } of list) await mapOne(raw, where, ctx, out, findings);
  return out;
}
