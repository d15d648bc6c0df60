/**
 * The bounds of `word-count`, `char-count` and `line-count`: `min`/`max` on the entry, or
 * promptfoo's forms in `value` — a bare number for an exact count, or `{ min, max }`.
 */
import type { CheckEntry } from '../experiment/schema.js';
import type { CheckIssue } from './check-definition.js';
import { isPlainObject } from './check-values.js';

export type CountBounds = { exact: number } | { min?: number; max?: number };

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function readExact(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return undefined;
}

/** Bounds plus the problems found reading them; `bounds` is undefined when unusable. */
export function readCountBounds(entry: CheckEntry): { bounds?: CountBounds; issues: CheckIssue[] } {
  const type = entry.type.replace(/^not-/, '');
  const onEntry = entry.min !== undefined || entry.max !== undefined;
  if (entry.value !== undefined && onEntry) {
    return {
      issues: [{ keyPath: 'value', message: `${type} takes either min/max or a value, not both` }],
    };
  }
  if (entry.value === undefined && !onEntry) {
    return {
      issues: [
        {
          keyPath: 'value',
          message: `${type} needs min, max, or an exact count`,
          hint: `e.g. { type: ${type}, max: 150 }`,
        },
      ],
    };
  }
  if (isPlainObject(entry.value)) {
    const extra = Object.keys(entry.value).filter((key) => key !== 'min' && key !== 'max');
    if (extra.length > 0) {
      return { issues: [{ keyPath: `value.${extra[0]}`, message: 'only min and max are allowed here' }] };
    }
    return checkRange(entry.value['min'], entry.value['max'], 'value.');
  }
  if (entry.value !== undefined) {
    const exact = readExact(entry.value);
    if (!isCount(exact)) {
      return {
        issues: [
          { keyPath: 'value', message: `${type} value must be a count (a number >= 0) or { min, max }` },
        ],
      };
    }
    return { bounds: { exact }, issues: [] };
  }
  return checkRange(entry.min, entry.max, '');
}

function checkRange(
  min: unknown,
  max: unknown,
  prefix: string,
): { bounds?: CountBounds; issues: CheckIssue[] } {
  const issues: CheckIssue[] = [];
  if (min === undefined && max === undefined) {
    issues.push({ keyPath: `${prefix}min`, message: 'give min, max or both' });
  }
  if (min !== undefined && !isCount(min))
    issues.push({ keyPath: `${prefix}min`, message: 'min must be a number >= 0' });
  if (max !== undefined && !isCount(max))
    issues.push({ keyPath: `${prefix}max`, message: 'max must be a number >= 0' });
  if (isCount(min) && isCount(max) && min > max) {
    issues.push({ keyPath: `${prefix}min`, message: `min (${min}) is greater than max (${max})` });
  }
  if (issues.length > 0) return { issues };
  return { bounds: { min: min as number | undefined, max: max as number | undefined }, issues };
}

/** Whether `count` satisfies the bounds, and a factual reason naming the count. */
export function judgeCount(
  count: number,
  bounds: CountBounds,
  unit: string,
): { ok: boolean; reason: string } {
  if ('exact' in bounds) {
    const ok = count === bounds.exact;
    return { ok, reason: `${count} ${unit}${ok ? ', exactly' : `, expected exactly ${bounds.exact}`}` };
  }
  const { min, max } = bounds;
  if (min !== undefined && count < min)
    return { ok: false, reason: `${count} ${unit}, below the minimum ${min}` };
  if (max !== undefined && count > max)
    return { ok: false, reason: `${count} ${unit}, above the maximum ${max}` };
  const range =
    min !== undefined && max !== undefined ? `${min}–${max}` : min !== undefined ? `>= ${min}` : `<= ${max}`;
  return { ok: true, reason: `${count} ${unit}, within ${range}` };
}

export function describeBounds(bounds: CountBounds | undefined): string {
  if (bounds === undefined) return '';
  if ('exact' in bounds) return `= ${bounds.exact}`;
  if (bounds.min !== undefined && bounds.max !== undefined) return `${bounds.min}–${bounds.max}`;
  return bounds.min !== undefined ? `>= ${bounds.min}` : `<= ${bounds.max}`;
}
