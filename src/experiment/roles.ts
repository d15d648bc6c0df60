/**
 * The four roles a model plays in a run. A plain list, so the journal's event schemas, the
 * spend ledger and the plan can name roles without building the experiment schema.
 */
export const ROLES = ['generator', 'mutator', 'judge', 'grader'] as const;
export type Role = (typeof ROLES)[number];
