/**
 * The journal's fixed word lists, without zod: events.ts builds its enums from them, and the
 * report page (browser code, no zod in its bundle) orders its legend by them, so the two can
 * never list different statuses.
 */
export const PHASES = [
  'baseline',
  'mutating',
  'generating',
  'checking',
  'judging',
  'grading',
  'scoring',
  'deciding',
  'retesting',
  'merging',
  'committing',
  'final',
] as const;

export const ITERATION_STATUSES = [
  'baseline',
  'keep',
  'pooled',
  'discard',
  'gate_fail',
  'holdout_fail',
  'inconclusive',
  'screened_out',
  'duplicate',
  'error',
  'interrupted',
] as const;
