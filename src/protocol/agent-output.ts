/**
 * How an agent case's files appear in its output text (docs/design/agent-runs.md "One case"): the
 * checks read the final message, then each created or changed file under a heading line, and each
 * deleted one under a heading marked so. The simulated mutator reads the same headings back out of
 * a check's value. (The judge and the grader get the case as a folder instead:
 * src/protocol/output-folder.ts.)
 */
export function fileHeading(path: string, deleted = false): string {
  return `=== ${path}${deleted ? ' (deleted)' : ''} ===`;
}

const HEADING = /^=== (.+?)( \(deleted\))? ===$/;

/** The file a heading line names, or undefined when the line is not one. */
export function parseFileHeading(line: string): { path: string; deleted: boolean } | undefined {
  const match = HEADING.exec(line.trim());
  return match ? { path: match[1] as string, deleted: match[2] !== undefined } : undefined;
}
