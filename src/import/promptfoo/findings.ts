/**
 * What an import could not carry over, and what it changed on the way. Every promptfoo setting
 * the importer meets ends up mapped, listed here as not imported, or explained in a note —
 * nothing is dropped silently. Entries with the same subject and reason are merged, so a
 * suite with 40 tests that all carry `metadata` gets one line, not forty.
 */

export interface Unmapped {
  what: string;
  why: string;
}

export interface UnmappedItem {
  /** What kind of thing, e.g. "`similar` assertion" or "`metadata` on a test". */
  subject: string;
  /** Where it was met, e.g. "tests[3]" or "tests.csv:7"; empty for config-wide items. */
  where: string;
  why: string;
}

export interface Findings {
  unmapped: UnmappedItem[];
  notes: string[];
}

export function createFindings(): Findings {
  return { unmapped: [], notes: [] };
}

export function addUnmapped(findings: Findings, subject: string, where: string, why: string): void {
  findings.unmapped.push({ subject, where, why });
}

export function addNote(findings: Findings, note: string): void {
  if (!findings.notes.includes(note)) findings.notes.push(note);
}

const MAX_PLACES = 4;

/** One line per (subject, reason), naming the first few places it occurs. */
export function summariseUnmapped(items: readonly UnmappedItem[]): Unmapped[] {
  const groups = new Map<string, { subject: string; why: string; places: string[] }>();
  for (const item of items) {
    const key = `${item.subject}\u0000${item.why}`;
    const group = groups.get(key) ?? { subject: item.subject, why: item.why, places: [] };
    if (item.where !== '' && !group.places.includes(item.where)) group.places.push(item.where);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ subject, why, places }) => {
    if (places.length === 0) return { what: subject, why };
    const shown = places.slice(0, MAX_PLACES).join(', ');
    const more = places.length > MAX_PLACES ? ` and ${places.length - MAX_PLACES} more` : '';
    return { what: `${subject} (${shown}${more})`, why };
  });
}
