/**
 * A test-only hook for the crash tests: with AUTORESEARCH_TEST_KILL_AT="<point>:<n>" the
 * process SIGKILLs itself the n-th time it reaches that point (1-based), so a test can crash
 * a real run at any phase without timed sleeps. Without the variable it does nothing.
 *
 * Points, in run order: started (manifest written, start not journaled), baseline,
 * iteration_started, mutating, proposed, generating, generated (after each finished
 * generation), checking, judging, grading, scoring, evaluated, finished (the iteration
 * journaled), recorded (results.tsv written), decided, committing, committed (git commit made,
 * not journaled), final, final_done (final check journaled, stop not).
 */
export function createKillPoint(
  spec: string | undefined,
  kill: () => void,
): ((point: string) => void) | undefined {
  if (spec === undefined || spec === '') return undefined;
  const match = /^([a-z_.-]+):(\d+)$/.exec(spec);
  if (!match) throw new Error(`AUTORESEARCH_TEST_KILL_AT must look like "point:n", got "${spec}"`);
  const target = match[1] as string;
  let remaining = Number(match[2]);
  return (point) => {
    if (point !== target) return;
    remaining -= 1;
    if (remaining === 0) kill();
  };
}
