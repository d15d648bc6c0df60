/**
 * A CLI's line-delimited JSON output (Codex's `--json` events, Claude Code's `stream-json`) as
 * the objects in it: one a line; anything else on stdout (a warning, a line cut short) is skipped.
 */
import { isRecord } from './is-record.js';

export function jsonLines(stdout: string): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    if (!line.trim().startsWith('{')) continue;
    try {
      const event: unknown = JSON.parse(line);
      if (isRecord(event)) events.push(event);
    } catch {
      // A line cut short or not JSON: not an event.
    }
  }
  return events;
}
