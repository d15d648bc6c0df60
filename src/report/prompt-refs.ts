/**
 * The prompts `autoresearch diff` compares, named the way people think of them: `baseline`,
 * `best`, an iteration number, or a pareto run's pool member (`p3`, docs/design/pareto-search.md).
 * Pure: from the run state to where the prompt text lives (an iteration's decided candidate, a
 * member's candidate, or best.md).
 */
import { suggestNearest } from '../did-you-mean.js';
import { AutoresearchError } from '../errors.js';
import type { PoolMemberRecord, RunState } from '../run/run-state.js';
import { findParents } from './lineage.js';

/** `working`: the prompt file(s) as they are in the working tree now, which the run never scored. */
export type PromptRef = 'baseline' | 'best' | 'working' | number | { member: string };
export type RecordedRef = Exclude<PromptRef, 'working'>;

/** `p0`, `p12`: how pool members are named everywhere (docs/design/pareto-search.md). */
export function isMemberName(text: string): boolean {
  return /^p(0|[1-9]\d*)$/.test(text.trim().toLowerCase());
}

export interface PromptTarget {
  ref: RecordedRef;
  /** `baseline (iteration 0)`, `best (iteration 5)`, `iteration 3 (discard)`. */
  label: string;
  iteration: number | null;
  /** The candidate whose prompt.md holds the text. */
  candidate: number;
  /** Read best.md first (falling back to the iteration's prompt). */
  bestFile: boolean;
  /** Other iterations that tried the very same prompt (a duplicate has no files of its own). */
  sameAs: { iteration: number; candidate: number }[];
}

export function parsePromptRef(text: string): PromptRef {
  const value = text.trim().toLowerCase();
  if (value === 'baseline' || value === 'best' || value === 'working') return value;
  if (/^\d+$/.test(value)) return Number(value);
  if (isMemberName(value)) return { member: value };
  throw new AutoresearchError('E_USAGE', `"${text}" does not name a prompt`, {
    hint: 'use an iteration number (as in `autoresearch show`), "baseline", "best", a pool member (p3) or "working" (your prompt file now)',
  });
}

/**
 * The pool member `name` names; an unknown one is a usage error listing the members (and the
 * nearest, when it looks like a typo), a run without a pool one saying members are pareto's.
 */
export function locateMember(state: RunState, name: string): PoolMemberRecord {
  const id = name.trim().toLowerCase();
  const runId = state.start?.runId ?? 'this run';
  const members = state.pool?.members ?? [];
  if (members.length === 0) {
    throw new AutoresearchError('E_USAGE', `run ${runId} has no pool member ${id}: it has no pool`, {
      hint:
        state.pool === null
          ? 'pool members (p0, p1, …) exist in runs of the pareto search only; name iterations instead (see `autoresearch show`)'
          : 'no member has entered the pool yet; p0 enters with the baseline',
    });
  }
  const found = members.find((m) => m.id === id);
  if (found !== undefined) return found;
  const ids = members.map((m) => m.id);
  const near = suggestNearest(id, ids);
  const listed =
    ids.length <= 20 ? ids.join(', ') : `${ids.slice(0, 20).join(', ')}, … (${ids.length} in all)`;
  throw new AutoresearchError('E_USAGE', `run ${runId} has no pool member ${id}`, {
    hint: `${near === undefined ? '' : `did you mean ${near}? `}its members are ${listed}`,
  });
}

function locateMemberPrompt(ref: { member: string }, state: RunState): PromptTarget {
  const member = locateMember(state, ref.member);
  const how =
    member.kind === 'seed'
      ? 'the baseline'
      : member.kind === 'merge'
        ? `merge of ${member.parents.join(' and ')}`
        : `from ${member.parents.join(', ')}`;
  const best = state.pool?.best === member.id ? ', the best' : '';
  return {
    ref,
    label: `${member.id} (iteration ${member.iteration}, ${how}${best})`,
    iteration: member.iteration,
    candidate: member.candidate,
    bestFile: false,
    sameAs: [],
  };
}

export function locatePrompt(ref: RecordedRef, state: RunState): PromptTarget {
  if (typeof ref === 'object') return locateMemberPrompt(ref, state);
  if (ref === 'baseline') {
    const iteration = state.baseline?.iteration ?? 0;
    return {
      ref,
      label: `baseline (iteration ${iteration})`,
      iteration,
      candidate: 0,
      bestFile: false,
      sameAs: [],
    };
  }
  if (ref === 'best') {
    const iteration = state.incumbent?.iteration ?? null;
    const record = state.iterations.find((r) => r.iteration === iteration);
    return {
      ref,
      label: iteration === null ? 'best' : `best (iteration ${iteration})`,
      iteration,
      candidate: record?.candidate ?? 0,
      bestFile: true,
      sameAs: [],
    };
  }
  const record = state.iterations.find((r) => r.iteration === ref);
  const open = state.open?.iteration === ref ? state.open : null;
  if (!record && !open) {
    const numbers = state.iterations.map((r) => r.iteration);
    throw new AutoresearchError('E_USAGE', `the run has no iteration ${ref}`, {
      hint:
        numbers.length > 0
          ? `its iterations are ${numbers[0]}–${numbers.at(-1)}; see them with \`autoresearch show\``
          : 'no iteration has finished yet',
    });
  }
  const status = record ? record.status : 'in progress';
  return {
    ref,
    label: `iteration ${ref} (${status})`,
    iteration: ref,
    candidate: record?.candidate ?? open?.candidate ?? 0,
    bestFile: false,
    sameAs: state.iterations
      .filter(
        (r) => r.iteration !== ref && r.promptSha256 !== null && r.promptSha256 === record?.promptSha256,
      )
      .map((r) => ({ iteration: r.iteration, candidate: r.candidate ?? 0 })),
  };
}

/**
 * The two prompts to compare. No argument: baseline → best. One iteration number: that
 * iteration against its parent (the incumbent it was compared with). One pool member: it
 * against its (first) parent member. `working` alone: best → what the prompt file holds now.
 * Two: a → b.
 */
export function choosePair(
  state: RunState,
  a: PromptRef | undefined,
  b: PromptRef | undefined,
): [PromptRef, PromptRef] {
  if (a !== undefined && b !== undefined) return [a, b];
  if (a === 'working') return ['best', 'working'];
  if (typeof a === 'object') {
    const member = locateMember(state, a.member);
    const parent = member.parents[0];
    if (parent === undefined) {
      throw new AutoresearchError(
        'E_USAGE',
        `${member.id} is the baseline: it has no parent to compare with`,
        {
          hint: `name a second prompt, e.g. \`autoresearch diff <run> ${member.id} best\``,
        },
      );
    }
    return [{ member: parent }, a];
  }
  if (a === undefined || typeof a !== 'number') return ['baseline', 'best'];
  locatePrompt(a, state);
  const parent =
    findParents(state.iterations).get(a) ?? (state.open?.iteration === a ? state.incumbent?.iteration : null);
  if (parent === null || parent === undefined) {
    throw new AutoresearchError('E_USAGE', `iteration ${a} is a baseline: it has no parent to compare with`, {
      hint: `name a second prompt, e.g. \`autoresearch diff <run> ${a} best\``,
    });
  }
  return [parent, a];
}
