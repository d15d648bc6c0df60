/** One thing the simulated mutator could change, with the wording and the claim it makes. */
import type { Family } from '../instructions.js';

export interface Target {
  family: Family;
  /** Words the instruction bans (avoid family), so a partial ban can be extended. */
  words?: string[];
  /** Item to mention (mention family). */
  item?: string;
  /** The one kind of case every shown failure behind it is (scopes.ts), so it can be scoped to it. */
  kind?: string;
  instruction: string;
  short: string;
  /** The change, as the hypothesis starts ("Adding an explicit 120-word limit"). */
  action: string;
  /** What it will do, measurably ("will make … pass (3 of 4 …)"). */
  effect: string;
}

export function lengthTarget(limit: number, effect: string): Target {
  return {
    family: 'length',
    instruction: `Keep the whole output under ${limit} words.`,
    short: `Under ${limit} words.`,
    action: `Adding an explicit ${limit}-word limit`,
    effect,
  };
}

export function questionTarget(effect: string): Target {
  return {
    family: 'question',
    instruction: 'End with one specific question the reader can answer in a line.',
    short: 'End with a question.',
    action: 'Requiring a closing question',
    effect,
  };
}
