/**
 * Kill chains against an uninterrupted reference run, shared by the kill tests of paired
 * acceptance and of the pareto search: a chain SIGKILLs a real run at each journal target in
 * turn (each after the first cuts the resume of the run the one before killed), resumes it to
 * its end, and compares it with the reference — no finished iteration redone, the same
 * decisions (and pool), every file of its iteration folders byte for byte, and the same set of
 * model calls in its cache (the sim is deterministic: a resume that asked anything the
 * reference did not would add one).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { RunEvent } from '../../../src/run/events.js';
import { readTreeBytes } from '../../helpers/temp-repo.js';
import { describeResult, runCli } from './cli.js';
import {
  checkFinishedRun,
  checkKilledRun,
  decisionsOf,
  readRunRecord,
  redoneIterations,
} from './invariants.js';
import { formatTarget, type JournalTarget, missedTarget, occurrenceFrom } from './journal-targets.js';
import { createProject } from './project.js';

export interface Reference {
  events: RunEvent[];
  decisions: ReturnType<typeof decisionsOf>;
  files: Map<string, string>;
  calls: string[];
}

// AUTORESEARCH_KILL_TRACE=1 prints each process as it ends: for finding a slow or failing chain.
export const trace = (text: string) => {
  if (process.env['AUTORESEARCH_KILL_TRACE'] === '1')
    process.stderr.write(`${new Date().toISOString()} ${text}\n`);
};

export const at = (point: string, iteration: number, nth: number, what: string): JournalTarget => ({
  point,
  iteration,
  nth,
  what,
});

/**
 * sha256 of every file under the run's iterations/, by path. A kill in the middle of an
 * atomic write leaves its `*.tmp` beside the target (src/atomic-file.ts): litter no reader
 * takes for a record file, so it is not compared.
 */
export async function iterationFiles(runDir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const [path, bytes] of await readTreeBytes(join(runDir, 'iterations'))) {
    if (!path.endsWith('.tmp')) files.set(path, createHash('sha256').update(bytes).digest('hex'));
  }
  return files;
}

/** The cache's entries (one per distinct model call, named by its key). */
export async function cachedCalls(runDir: string): Promise<string[]> {
  return [...(await readTreeBytes(join(runDir, 'cache'))).keys()].filter((path) => path.endsWith('.json'));
}

/** The reference's record, read once its run finished. */
export async function referenceOf(runDir: string): Promise<Reference> {
  const { state, events } = await readRunRecord(runDir);
  return {
    events,
    decisions: decisionsOf(state),
    files: await iterationFiles(runDir),
    calls: await cachedCalls(runDir),
  };
}

export interface ChainInput {
  main: string;
  fixture: string;
  args: readonly string[];
  reference: Reference;
}

export async function runChain(
  input: ChainInput,
  chain: number,
  targets: readonly JournalTarget[],
): Promise<string[]> {
  const { main, reference } = input;
  const project = await createProject({ fixture: input.fixture });
  const fired: JournalTarget[] = [];
  const problems: string[] = [];
  const say = (text: string) =>
    problems.push(`chain ${chain} [${fired.map(formatTarget).join(' → ')}]: ${text}`);
  try {
    let args = input.args;
    let from = 0;
    for (const target of targets) {
      const occurrence = occurrenceFrom(reference.events, target, from);
      const killAt = `${target.point}:${occurrence}`;
      const result = await runCli(main, args, { cwd: project.dir, env: project.env, killAt });
      trace(`chain ${chain} ${args[0]} from ${from}, kill at ${killAt}: ${result.signal ?? result.exitCode}`);
      if (result.signal !== 'SIGKILL') {
        say(`${formatTarget(target)} (${killAt}) was never reached: ${describeResult(result)}`);
        return problems;
      }
      fired.push(target);
      const run = await project.onlyRun();
      for (const problem of await checkKilledRun(run.dir)) say(`after the kill: ${problem}`);
      const { events, state } = await readRunRecord(run.dir);
      const missed = missedTarget(events, target);
      if (missed) say(`the kill missed ${formatTarget(target)}: ${missed}`);
      from = state.nextIteration;
      args = ['resume', run.id];
    }
    const run = await project.onlyRun();
    const result = await runCli(main, args, { cwd: project.dir, env: project.env });
    trace(`chain ${chain} final resume: ${result.signal ?? result.exitCode}`);
    if (result.exitCode !== 0) {
      say(`the last resume failed: ${describeResult(result)}`);
      return problems;
    }
    for (const problem of await checkFinishedRun(main, project, run.dir)) say(problem);
    for (const problem of await differencesFromReference(reference, run.dir)) say(problem);
    return problems;
  } finally {
    await project.cleanup();
  }
}

/** How a finished run differs from the uninterrupted reference: work redone, decisions, pool, files, calls. */
export async function differencesFromReference(reference: Reference, runDir: string): Promise<string[]> {
  const problems: string[] = [];
  const { state, events } = await readRunRecord(runDir);
  problems.push(...redoneIterations(events));
  const decisions = decisionsOf(state);
  const expected = reference.decisions;
  const count = Math.max(decisions.iterations.length, expected.iterations.length);
  for (let index = 0; index < count; index++) {
    const got = JSON.stringify(decisions.iterations[index]);
    const want = JSON.stringify(expected.iterations[index]);
    if (got !== want)
      problems.push(
        `iteration ${index} differs from the uninterrupted run:\n  got      ${got}\n  expected ${want}`,
      );
  }
  const pool = JSON.stringify(decisions.pool);
  if (pool !== JSON.stringify(expected.pool))
    problems.push(`the pool differs:\n  got      ${pool}\n  expected ${JSON.stringify(expected.pool)}`);
  const final = JSON.stringify(decisions.finalEvaluation);
  if (final !== JSON.stringify(expected.finalEvaluation)) {
    problems.push(
      `final check ${final}, the uninterrupted run's ${JSON.stringify(expected.finalEvaluation)}`,
    );
  }
  const files = await iterationFiles(runDir);
  for (const path of new Set([...files.keys(), ...reference.files.keys()])) {
    const got = files.get(path);
    const want = reference.files.get(path);
    if (got === want) continue;
    const how =
      got === undefined ? 'missing' : want === undefined ? 'not in the uninterrupted run' : 'differs';
    problems.push(`iterations/${path} ${how}`);
  }
  const calls = new Set(await cachedCalls(runDir));
  const extra = [...calls].filter((key) => !reference.calls.includes(key));
  const missing = reference.calls.filter((key) => !calls.has(key));
  if (extra.length > 0 || missing.length > 0) {
    problems.push(
      `the cache has ${extra.length} call(s) the uninterrupted run never made and lacks ${missing.length}`,
    );
  }
  return problems;
}
