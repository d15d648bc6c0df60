/**
 * The prompts `autoresearch diff` compares, named the way people think of them: `baseline`,
 * `best`, or an iteration number. Pure: from the run state to where the prompt text lives
 * (an iteration's decided candidate, or best.md).
 */
import { AutoresearchError } from '../errors.js';
import type { RunState } from '../run/run-state.js';
import { findParents } from './lineage.js';

export type PromptRef = 'baseline' | 'best' | number;

export interface PromptTarget {
  ref: PromptRef;
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
  if (value === 'baseline' || value === 'best') return value;
  if (/^\d+$/.test(value)) return Number(value);
  throw new AutoresearchError('E_USAGE', `"${text}" does not name a prompt`, {
    hint: 'use an iteration number (as in `autoresearch show`), "baseline" or "best"',
  });
}

export function locatePrompt(ref: PromptRef, state: RunState): PromptTarget {
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
 * iteration against its parent (the incumbent it was compared with). Two: a → b.
 */
export function choosePair(
  state: RunState,
  a: PromptRef | undefined,
  b: PromptRef | undefined,
): [PromptRef, PromptRef] {
  if (a !== undefined && b !== undefined) return [a, b];
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
