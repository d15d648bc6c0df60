/**
 * `run <experiment> --from <run>[/<member>|/pool]` (docs/design/run-records.md): where a run's
 * starting prompt came from. The manifest's optional `from` holds it — the source run, what of it
 * was taken, and each starting prompt's text and digest with the commit it is at — so `resume`
 * needs nothing from the source run, and `show` and the report can name it. The prompts are
 * evaluated afresh as the new run's baseline; the source run's scores are only a reminder. A
 * whole pool (`/pool`) starts from its best, with every other live member a seed of the new pool
 * beside it (`seeds`).
 */
import * as z from 'zod';
import { AutoresearchError } from '../errors.js';
import { isMemberName } from '../report/prompt-refs.js';

/** One more starting prompt of a `/pool` start: a member of the source pool other than its best. */
export const SeedFrom = z.strictObject({
  /** Its id in the source pool (`p3`). */
  member: z.string().min(1),
  iteration: z.number().int().min(0),
  promptSha256: z.string().min(1),
  train: z.number().nullable(),
  /** Its pool ref's commit, when git has one. */
  commit: z.string().min(1).nullable(),
  ref: z.string().min(1).nullable(),
  text: z.string(),
});
export type SeedFrom = z.infer<typeof SeedFrom>;

export const RunFrom = z.strictObject({
  runId: z.string().min(1),
  experiment: z.string().min(1),
  /** The source run's `best`, one pool `member`, or its whole `pool` (the best, and `seeds`). */
  take: z.enum(['best', 'member', 'pool']),
  /** The pool member it was (`p3`; a pareto run's best too), or null: a greedy run's best. */
  member: z.string().min(1).nullable(),
  /** The source run's iteration that produced it (its baseline's, when the best never moved). */
  iteration: z.number().int().min(0),
  /** hashPrompt of the text (src/prompt-hash.ts). */
  promptSha256: z.string().min(1),
  /** Its train score in the source run: shown beside the fresh baseline, never reused as it. */
  train: z.number().nullable(),
  /** The git commit holding it (the keep, the baseline commit or a pool ref's), when git has one. */
  commit: z.string().min(1).nullable(),
  /** The ref that commit was read from (`refs/heads/autoresearch/…`, a pool ref), or null. */
  ref: z.string().min(1).nullable(),
  /** The prompt itself (a parts document with several optimised parts): the new run's baseline. */
  text: z.string(),
  /**
   * `/pool`: the source pool's other live members, in member order, each evaluated with the
   * baseline and a seed of the new pool (docs/design/pareto-search.md). Absent otherwise.
   */
  seeds: z.array(SeedFrom).optional(),
});
export type RunFrom = z.infer<typeof RunFrom>;

/** What `--from` names, before the runs folder is read. */
export type FromRef = { runId: string } & (
  | { take: 'best' }
  | { take: 'member'; member: string }
  | { take: 'pool' }
);

const HINT =
  'give a run id (its best), `<run-id>/p<n>` (one pool member, as `autoresearch show` lists them) or `<run-id>/pool` (its whole pool)';

/** `<run-id>`, `<run-id>/best`, `<run-id>/p3`, `<run-id>/pool`; anything else is a usage error. */
export function parseFromRef(text: string): FromRef {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const runId = (slash < 0 ? trimmed : trimmed.slice(0, slash)).trim();
  const rest = slash < 0 ? '' : trimmed.slice(slash + 1).toLowerCase();
  if (runId === '') throw new AutoresearchError('E_USAGE', `--from "${text}" names no run`, { hint: HINT });
  if (rest === '' || rest === 'best') return { runId, take: 'best' };
  if (rest === 'pool') return { runId, take: 'pool' };
  if (isMemberName(rest)) return { runId, take: 'member', member: rest };
  throw new AutoresearchError('E_USAGE', `--from "${text}": "${rest}" does not name a pool member`, {
    hint: HINT,
  });
}

/** A pool start's seeds as the loop takes them: each text, and where it came from. */
export function startSeeds(from: Pick<RunFrom, 'runId' | 'seeds'>): { text: string; origin: string }[] {
  return (from.seeds ?? []).map((s) => ({ text: s.text, origin: `${s.member} of run ${from.runId}` }));
}

/**
 * `the best of run 2026…-k3f9 (iteration 4)`, `pool member p2 of run … (iteration 3)`,
 * `the pool of run … (its best, from iteration 4, and 3 more members)`.
 */
export function describeFrom(
  from: Pick<RunFrom, 'runId' | 'take' | 'member' | 'iteration'> & { seeds?: readonly unknown[] },
): string {
  if (from.take === 'pool') {
    const more = from.seeds?.length ?? 0;
    const others = more === 0 ? 'no other member' : `${more} more member${more === 1 ? '' : 's'}`;
    return `the pool of run ${from.runId} (its best, from iteration ${from.iteration}, and ${others})`;
  }
  const what = from.take === 'member' ? `pool member ${from.member}` : 'the best';
  return `${what} of run ${from.runId} (iteration ${from.iteration})`;
}
