/**
 * The words the simulated generator slips into mediocre outputs and the simulated judge marks
 * down, kept in one place so the two roles agree on what "jargon" and "filler" mean.
 */

export const JARGON = [
  'synergy',
  'leverage',
  'circle back',
  'move the needle',
  'best-in-class',
  'cutting-edge',
  'holistic',
  'paradigm',
  'low-hanging fruit',
  'game-changer',
  'touch base',
  'value-add',
] as const;

export const FILLER = [
  'i hope this email finds you well',
  'i hope this message finds you well',
  'i wanted to reach out',
  "in today's fast-paced",
  'at the end of the day',
  'we pride ourselves',
  'wide range of',
  'of all sizes',
] as const;

export const TONES = ['friendly', 'formal', 'concise', 'warm', 'direct'] as const;
export type Tone = (typeof TONES)[number];

/** Occurrences (case-insensitive, overlapping words counted once each) of any of the terms. */
export function findTerms(text: string, terms: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return terms.filter((term) => lower.includes(term.toLowerCase()));
}
