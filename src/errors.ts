/**
 * One error family for everything the tool reports to a person. Each error carries a
 * stable code (documented, safe to match on), the exit code it maps to, and a hint.
 * Failures inside an iteration are data, not exceptions: these are for the run boundary.
 */

export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export type ErrorCode =
  | 'E_USAGE'
  | 'E_VALIDATION'
  | 'E_NOT_FOUND'
  | 'E_CONFIG'
  | 'E_MISSING_KEY'
  | 'E_PROVIDER'
  | 'E_AUTH'
  | 'E_CREDIT'
  | 'E_JUDGE'
  | 'E_GRADER'
  | 'E_GIT'
  | 'E_LOCKED'
  | 'E_RESUME_MISMATCH'
  | 'E_RUN_RECORD'
  | 'E_RUN_VERSION'
  | 'E_RUN_FAILED'
  | 'E_NO_SPACE'
  | 'E_FAIL_UNDER'
  | 'E_INTERRUPTED';

const EXIT_BY_CODE: Record<ErrorCode, ExitCode> = {
  E_USAGE: EXIT.usage,
  E_VALIDATION: EXIT.usage,
  E_NOT_FOUND: EXIT.usage,
  E_CONFIG: EXIT.usage,
  E_MISSING_KEY: EXIT.usage,
  E_PROVIDER: EXIT.failure,
  E_AUTH: EXIT.failure,
  E_CREDIT: EXIT.failure,
  E_JUDGE: EXIT.failure,
  E_GRADER: EXIT.failure,
  E_GIT: EXIT.failure,
  E_LOCKED: EXIT.usage,
  E_RESUME_MISMATCH: EXIT.usage,
  E_RUN_RECORD: EXIT.failure,
  // A run from a newer autoresearch: the fix is on the user's side (upgrade), like a usage error.
  E_RUN_VERSION: EXIT.usage,
  E_RUN_FAILED: EXIT.failure,
  E_NO_SPACE: EXIT.failure,
  E_FAIL_UNDER: EXIT.failure,
  E_INTERRUPTED: EXIT.interrupted,
};

export class AutoresearchError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly exitCode: ExitCode;

  constructor(code: ErrorCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AutoresearchError';
    this.code = code;
    this.hint = options.hint;
    this.exitCode = EXIT_BY_CODE[code];
  }
}

/** Where a problem sits in a user's file; line and column are 1-based. */
export interface SourceLocation {
  file: string;
  line?: number;
  col?: number;
}

/** One thing wrong (or suspicious) in an experiment, reported together with all the others. */
export interface Problem {
  severity: 'error' | 'warning';
  location: SourceLocation;
  /** Dotted key path inside the file, e.g. `models.judge.temperature` or `[3].vars.topic`. */
  keyPath: string;
  message: string;
  hint?: string;
}

/** Every problem found while loading an experiment, thrown together so the user fixes them in one pass. */
export class ValidationError extends AutoresearchError {
  readonly problems: Problem[];

  constructor(problems: Problem[]) {
    const errors = problems.filter((p) => p.severity === 'error');
    super('E_VALIDATION', `${errors.length} problem${errors.length === 1 ? '' : 's'} found`);
    this.name = 'ValidationError';
    this.problems = problems;
  }
}

export function isAutoresearchError(error: unknown): error is AutoresearchError {
  return error instanceof AutoresearchError;
}
