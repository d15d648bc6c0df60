import { sha256Json } from '../../sha256.js';

/**
 * `case-<first 8 hex of sha256(vars)>`: stable across file formats (vars are hashed as the
 * strings the template sees) and across reordering of the file.
 */
export function generateCaseId(vars: Readonly<Record<string, string>>): string {
  return `case-${sha256Json(vars).slice(0, 8)}`;
}
