/**
 * Names the experiment schema shares with modules that must not build it: the judge and
 * grader processes, the journal's event schemas. Importing schema.ts constructs every
 * experiment schema (~20 ms at start-up); these need only the names.
 */
import type { JudgeEntry, ProgramEntry } from './schema.js';

export const PROVIDERS = ['anthropic', 'openai', 'claude-cli', 'codex-cli', 'command', 'sim'] as const;

export const ROLES = ['generator', 'mutator', 'judge', 'grader'] as const;
export type Role = (typeof ROLES)[number];

export function isProgramEntry(entry: JudgeEntry): entry is ProgramEntry {
  return !('provider' in entry) || entry.provider === undefined;
}
