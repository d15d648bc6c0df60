/**
 * Turns zod issues into problems a person can act on: each names the file, line and column
 * of the offending key, the key path, what was expected, and — for unknown keys and enum
 * values — the nearest valid spelling.
 */
import type * as z from 'zod';
import type { Problem } from '../errors.js';
import { suggestNearest } from '../did-you-mean.js';
import { formatKeyPath, hasPath, type KeyPath, readAtPath } from './key-path.js';
import type { Position } from './yaml-source.js';

type Issue = z.core.$ZodIssue;

/** Advice for keys whose limits are not self-explanatory. */
const KEY_HINTS: Record<string, string> = {
  'search.holdout': 'the holdout share must leave train cases: use at most 0.9 (typically 0.2–0.3)',
  'search.test': 'the test share must leave train cases: use at most 0.9 with search.holdout (typically 0.2)',
  name: 'e.g. name: cold-email',
  // A case's key (the path is relative to the case).
  should_trigger:
    'write true (the agent should use the skill for this task) or false (it should not), unquoted',
};

export interface IssueContext {
  file: string;
  /** The schema the data was parsed with (for the keys allowed where an unknown key sits). */
  schema: z.ZodType;
  /** The parsed data as plain values. */
  data: unknown;
  locate(path: KeyPath): Position;
  /** Prepended to every key path (e.g. `[3]` for the fourth case). */
  prefix?: KeyPath;
}

export function describeIssues(issues: readonly Issue[], context: IssueContext): Problem[] {
  return issues.flatMap((issue) => describeIssue(issue, context, [], context.schema));
}

function describeIssue(issue: Issue, context: IssueContext, base: KeyPath, baseSchema: z.ZodType): Problem[] {
  const path: KeyPath = [...base, ...(issue.path as (string | number)[])];
  const value = readAtPath(context.data, path);
  const at = (where: KeyPath, message: string, givenHint?: string): Problem => {
    const { line, col } = context.locate(where);
    const keyPath = formatKeyPath([...(context.prefix ?? []), ...where]);
    const hint = givenHint ?? KEY_HINTS[formatKeyPath(where)];
    return {
      severity: 'error',
      location: { file: context.file, line, col },
      keyPath,
      message,
      ...(hint === undefined ? {} : { hint }),
    };
  };

  switch (issue.code) {
    case 'unrecognized_keys': {
      const schemaHere = walkSchema(
        baseSchema,
        issue.path as (string | number)[],
        readAtPath(context.data, base),
      );
      const allowed = schemaHere ? objectKeys(pickUnionOption(schemaHere, value)) : [];
      return issue.keys.map((key) => {
        const near = suggestNearest(key, allowed);
        const hint = near
          ? `did you mean \`${near}\`?`
          : allowed.length > 0
            ? `allowed here: ${allowed.join(', ')}`
            : undefined;
        return at([...path, key], `unknown key \`${key}\``, hint);
      });
    }
    case 'invalid_union': {
      const branch = pickBranch(issue.errors);
      const options = unionOptions(walkSchema(baseSchema, issue.path as (string | number)[], undefined));
      const branchSchema = options?.[branch.index];
      if (branch.issues.length === 0 || branchSchema === undefined) return [at(path, issue.message)];
      return branch.issues.flatMap((inner) => describeIssue(inner, context, path, branchSchema));
    }
    case 'invalid_type': {
      if (!hasPath(context.data, path)) {
        const key = path[path.length - 1];
        return [at(path, `missing required key \`${String(key)}\``, `expected ${article(issue.expected)}`)];
      }
      return [at(path, `expected ${article(issue.expected)}, got ${describeValue(value)}`)];
    }
    case 'invalid_value': {
      const allowed = issue.values.map(String);
      const near = typeof value === 'string' ? suggestNearest(value, allowed) : undefined;
      return [
        at(
          path,
          `${describeValue(value)} is not one of: ${allowed.join(', ')}`,
          near ? `did you mean \`${near}\`?` : undefined,
        ),
      ];
    }
    case 'too_small':
    case 'too_big':
      return [at(path, describeBound(issue, value))];
    case 'invalid_format': {
      const what = isDefaultMessage(issue.message) ? `must be a valid ${issue.format}` : issue.message;
      return [at(path, `${describeValue(value)}: ${what}`)];
    }
    default:
      return [at(path, issue.message)];
  }
}

function describeBound(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, value: unknown): string {
  const got = `got ${describeValue(value)}`;
  if (!isDefaultMessage(issue.message)) return `${issue.message} (${got})`;
  const small = issue.code === 'too_small';
  const limit = small
    ? (issue as z.core.$ZodIssueTooSmall).minimum
    : (issue as z.core.$ZodIssueTooBig).maximum;
  const op = small ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
  if (issue.origin === 'array' || issue.origin === 'set') {
    return small ? `needs at least ${String(limit)} item(s)` : `allows at most ${String(limit)} item(s)`;
  }
  if (issue.origin === 'string') {
    return small && Number(limit) === 1 ? 'must not be empty' : `length must be ${op} ${String(limit)}`;
  }
  return `must be ${op} ${String(limit)} (${got})`;
}

/** zod's built-in messages start like this; ours (set in the schema) are kept verbatim. */
function isDefaultMessage(message: string): boolean {
  return /^(Too small|Too big|Invalid)/.test(message);
}

const EXPECTED_NAMES: Record<string, string> = {
  object: 'mapping',
  record: 'mapping',
  array: 'list',
  int: 'integer',
};

/** zod's type names in the words of a YAML file: a mapping, a list, a string, … */
function article(type: string): string {
  const name = EXPECTED_NAMES[type] ?? type;
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return String(value);
}

/**
 * The union branch the user most plausibly meant: the one with the fewest complaints, where
 * a value of the wrong type altogether weighs more than a wrong value of the right type.
 */
function pickBranch(branches: readonly (readonly Issue[])[]): { index: number; issues: readonly Issue[] } {
  let best = { index: 0, issues: branches[0] ?? [], score: Number.POSITIVE_INFINITY };
  const weigh = (i: Issue): number => {
    if (i.code === 'unrecognized_keys') return i.keys.length;
    return i.code === 'invalid_type' && i.path.length === 0 ? 1.5 : 1;
  };
  for (const [index, issues] of branches.entries()) {
    const score = issues.reduce((sum, i) => sum + weigh(i), 0);
    if (score < best.score) best = { index, issues, score };
  }
  return best;
}

interface Def {
  type: string;
  [key: string]: unknown;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strip wrappers (optional, default, …) down to the schema that shapes the value. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if (
      ['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional'].includes(def.type)
    ) {
      current = def['innerType'] as z.ZodType;
    } else if (def.type === 'pipe') {
      current = def['in'] as z.ZodType;
    } else {
      return current;
    }
  }
  return current;
}

function objectKeys(schema: z.ZodType): string[] {
  const def = defOf(unwrap(schema));
  return def.type === 'object' ? Object.keys(def['shape'] as object) : [];
}

function unionOptions(schema: z.ZodType | undefined): z.ZodType[] | undefined {
  if (schema === undefined) return undefined;
  const def = defOf(unwrap(schema));
  return def.type === 'union' ? (def['options'] as z.ZodType[]) : undefined;
}

/** The schema that applies at `path`, following the data to choose among union options. */
function walkSchema(
  schema: z.ZodType,
  path: readonly (string | number)[],
  data: unknown,
): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  let value = data;
  for (const segment of path) {
    if (current === undefined) return undefined;
    current = pickUnionOption(unwrap(current), value);
    const def = defOf(current);
    if (def.type === 'object') current = (def['shape'] as Record<string, z.ZodType>)[String(segment)];
    else if (def.type === 'array') current = def['element'] as z.ZodType;
    else if (def.type === 'record') current = def['valueType'] as z.ZodType;
    else return undefined;
    value = readAtPath(value, [segment]);
  }
  return current === undefined ? undefined : unwrap(current);
}

/** For a union of objects, the option whose keys cover most of the value's keys. */
function pickUnionOption(schema: z.ZodType, value: unknown): z.ZodType {
  const options = unionOptions(schema);
  if (!options) return schema;
  const keys = value !== null && typeof value === 'object' ? Object.keys(value) : [];
  let best = options[0] ?? schema;
  let bestScore = -1;
  for (const option of options) {
    const known = new Set(objectKeys(option));
    const score = keys.filter((k) => known.has(k)).length;
    if (score > bestScore) {
      best = unwrap(option);
      bestScore = score;
    }
  }
  return best;
}
