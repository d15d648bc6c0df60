/**
 * The check vocabulary (docs/design/checks.md): promptfoo's names, each type a small function found
 * here. Every type also exists with a `not-` prefix, which inverts pass and score.
 */
import type { CheckEntry } from '../experiment/schema.js';
import type { CheckDefinition, CheckIssue } from './check-definition.js';
import { suggestNearest } from '../did-you-mean.js';
import { NEGATION, parseCheckType } from './check-type-prefix.js';
import { commandCheck } from './types/command.js';
import { containsCheck, icontainsCheck } from './types/contains.js';
import { containsJsonCheck } from './types/contains-json.js';
import {
  containsAllCheck,
  containsAnyCheck,
  icontainsAllCheck,
  icontainsAnyCheck,
} from './types/contains-list.js';
import { charCountCheck, lineCountCheck, wordCountCheck } from './types/counts.js';
import { equalsCheck } from './types/equals.js';
import { isJsonCheck } from './types/is-json.js';
import { javascriptCheck } from './types/javascript.js';
import { regexCheck } from './types/regex.js';
import { skillUsedCheck } from './types/skill-used.js';
import { startsWithCheck } from './types/starts-with.js';
import { toolCallCheck } from './types/tool-call.js';
import { endReasonCheck, toolErrorCountCheck, turnCountCheck } from './types/agent-run.js';
import { fileExistsCheck } from './types/file-exists.js';
import { type CheckScope, validateAgentKeys } from './agent/agent-keys.js';

export const CHECK_TYPES = {
  equals: equalsCheck,
  contains: containsCheck,
  icontains: icontainsCheck,
  'contains-any': containsAnyCheck,
  'contains-all': containsAllCheck,
  'icontains-any': icontainsAnyCheck,
  'icontains-all': icontainsAllCheck,
  'starts-with': startsWithCheck,
  regex: regexCheck,
  'is-json': isJsonCheck,
  'contains-json': containsJsonCheck,
  'word-count': wordCountCheck,
  'char-count': charCountCheck,
  'line-count': lineCountCheck,
  javascript: javascriptCheck,
  command: commandCheck,
  'tool-call': toolCallCheck,
  // An agent case's workspace and run (docs/design/checks.md "Checks on an agent's files and actions").
  'file-exists': fileExistsCheck,
  'turn-count': turnCountCheck,
  'end-reason': endReasonCheck,
  'tool-error-count': toolErrorCountCheck,
  'skill-used': skillUsedCheck,
} as const satisfies Record<string, CheckDefinition>;

export type CheckTypeName = keyof typeof CHECK_TYPES;
export const CHECK_TYPE_NAMES = Object.keys(CHECK_TYPES) as CheckTypeName[];

export { parseCheckType };

export function isCheckTypeName(name: string): name is CheckTypeName {
  return Object.hasOwn(CHECK_TYPES, name);
}

/** The definition for a type as written (prefix allowed), or undefined when unknown. */
export function findCheck(
  type: string,
): { definition: CheckDefinition; base: CheckTypeName; negated: boolean } | undefined {
  const { base, negated } = parseCheckType(type);
  return isCheckTypeName(base) ? { definition: CHECK_TYPES[base], base, negated } : undefined;
}

/**
 * Every problem with one check entry (already valid against the schema); key paths are relative to
 * the entry. `scope` says whether the experiment's cases are agent runs (default: not).
 */
export function validateCheckEntry(entry: CheckEntry, scope: CheckScope = { agent: false }): CheckIssue[] {
  const found = findCheck(entry.type);
  if (found === undefined) {
    const { negated, base } = parseCheckType(entry.type);
    const suggestion = suggestNearest(base, CHECK_TYPE_NAMES);
    return [
      {
        keyPath: 'type',
        message: `unknown check type "${entry.type}"`,
        hint:
          suggestion !== undefined
            ? `did you mean "${negated ? NEGATION : ''}${suggestion}"?`
            : `known types: ${CHECK_TYPE_NAMES.join(', ')} (each also with a not- prefix)`,
      },
    ];
  }
  return [
    ...validateAgentKeys(entry, found.definition, found.base, scope),
    ...found.definition.validate(entry),
  ];
}

/** The display name: the entry's `name`, else the type and a short rendering of its value. */
export function checkName(entry: CheckEntry): string {
  if (entry.name !== undefined) return entry.name;
  const found = findCheck(entry.type);
  const detail = found?.definition.describe(entry) ?? '';
  const named = detail === '' ? entry.type : `${entry.type}: ${detail}`;
  // Two checks of one type on two files stay apart in reports and feedback.
  return entry.file === undefined ? named : `${named} in ${entry.file}`;
}
