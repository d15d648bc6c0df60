/** True when `error` is a Node system error with this `code` (ENOENT, EEXIST, …). */
export function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
