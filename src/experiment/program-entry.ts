/** A judge or grader entry either names a provider (a model) or, without one, a program to run. */
import type { JudgeEntry, ProgramEntry } from './schema.js';

export function isProgramEntry(entry: JudgeEntry): entry is ProgramEntry {
  return !('provider' in entry) || entry.provider === undefined;
}
