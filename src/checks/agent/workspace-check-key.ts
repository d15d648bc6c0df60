/**
 * Which `command` checks run in the workspace an agent left (`in: workspace`), and the key their
 * result is recorded under in agent.json: what was run (argv, timeout, threshold), so a renamed or
 * re-weighted check finds its result and a changed one is run again.
 */
import type { CheckEntry } from '../../experiment/schema.js';
import { sha256Json } from '../../sha256.js';
import { parseCheckType } from '../check-type-prefix.js';

export const WORKSPACE = 'workspace';

export function isWorkspaceCommand(entry: CheckEntry): boolean {
  return parseCheckType(entry.type).base === 'command' && entry.in === WORKSPACE;
}

export function workspaceCheckKey(entry: CheckEntry): string {
  return sha256Json({
    argv: entry.value ?? null,
    timeout_s: entry.timeout_s ?? null,
    threshold: entry.threshold ?? null,
  });
}
