/**
 * The compact assertions of promptfoo's CSV tests (`__expected` columns): `contains: foo`,
 * `not-icontains-any: a, b`, `starts-with(0.9): x`, `fn: output.length < 100`,
 * `grade: is polite`, `file://check.js`; anything else means the output must equal the cell.
 */
import { PROMPTFOO_TYPES } from './assertion-types.js';

export interface StringAssertion {
  type: string;
  value?: unknown;
  threshold?: number;
}

const TYPE_PATTERN = new RegExp(
  `^(not-)?(${[...PROMPTFOO_TYPES].sort((a, b) => b.length - a.length).join('|')})(?:\\((\\d+(?:\\.\\d+)?)\\))?(?::([\\s\\S]*))?$`,
);
const LIST_TYPES = new Set(['contains-any', 'contains-all', 'icontains-any', 'icontains-all']);

function stripPrefix(text: string, prefixes: string[]): string | undefined {
  const prefix = prefixes.find((p) => text.startsWith(p));
  return prefix === undefined ? undefined : text.slice(prefix.length).trim();
}

export function assertionFromString(expected: string): StringAssertion {
  const script = stripPrefix(expected, ['javascript:', 'fn:', 'eval:']);
  if (script !== undefined) return { type: 'javascript', value: script };
  const graded = stripPrefix(expected, ['grade:', 'llm-rubric:']);
  if (graded !== undefined) return { type: 'llm-rubric', value: graded };
  const python = stripPrefix(expected, ['python:']);
  if (python !== undefined) return { type: 'python', value: python };
  if (expected.startsWith('file://')) {
    const path = expected.trim();
    if (/\.py(?::\w+)?$/.test(path)) return { type: 'python', value: path };
    if (/\.[cm]?[jt]s(?::[\w$]+)?$/.test(path)) return { type: 'javascript', value: path };
  }
  const match = TYPE_PATTERN.exec(expected);
  if (!match) return { type: 'equals', value: expected };
  const [, not, base, threshold, rest] = match as unknown as [
    string,
    string | undefined,
    string,
    string | undefined,
    string | undefined,
  ];
  const type = `${not ?? ''}${base}`;
  const value =
    rest === undefined
      ? undefined
      : LIST_TYPES.has(base)
        ? rest.split(',').map((s) => s.trim())
        : rest.trim();
  return {
    type,
    ...(value === undefined || value === '' ? {} : { value }),
    ...(threshold === undefined ? {} : { threshold: Number.parseFloat(threshold) }),
  };
}
