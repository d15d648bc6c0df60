import { stat } from 'node:fs/promises';

/** True when `error` is a Node system error with this `code` (ENOENT, EEXIST, …). */
export function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** Whether something exists at `path`; errors other than "not found" are thrown. */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    throw error;
  }
}
