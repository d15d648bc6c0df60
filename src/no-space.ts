/**
 * A full disk (ENOSPC) or an exhausted quota (EDQUOT) is the user's to fix, not a bug: the
 * run boundary names it and the file it hit, and says that the run goes on once space is
 * back (the journal is append-only and drops a line a failed write cut short, so an
 * interrupted iteration is simply redone on resume).
 */
import { AutoresearchError } from './errors.js';

const NO_SPACE_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);

interface SystemError {
  code?: unknown;
  path?: unknown;
  cause?: unknown;
}

/** The system error in `error`'s cause chain that says the disk is full, if any. */
function findNoSpace(error: unknown): SystemError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const candidate = current as SystemError;
    if (typeof candidate.code === 'string' && NO_SPACE_CODES.has(candidate.code)) return candidate;
    current = candidate.cause;
  }
  return undefined;
}

/**
 * Writes through a file handle fail without the file's path; the writer that knows it adds it,
 * so the message can say which disk filled up.
 */
export function notePath(error: unknown, path: string): unknown {
  const found = findNoSpace(error);
  if (found !== undefined && found.path === undefined) found.path = path;
  return error;
}

/** The error a person sees for a full disk; undefined for any other error. */
export function noSpaceError(error: unknown): AutoresearchError | undefined {
  const found = findNoSpace(error);
  if (found === undefined) return undefined;
  const where = typeof found.path === 'string' ? ` (${found.path})` : '';
  const what = found.code === 'EDQUOT' ? 'disk quota exceeded' : 'no space left on device';
  return new AutoresearchError('E_NO_SPACE', `${what}${where}`, {
    hint: 'free some space on that disk; a run it stopped continues with `autoresearch resume <run-id>`, redoing only the iteration it cut short',
    cause: error,
  });
}
