import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal data always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * `case-<first 8 hex of sha256(vars)>`: stable across file formats (vars are hashed as the
 * strings the template sees) and across reordering of the file.
 */
export function generateCaseId(vars: Readonly<Record<string, string>>): string {
  return `case-${createHash('sha256').update(canonicalJson(vars)).digest('hex').slice(0, 8)}`;
}
