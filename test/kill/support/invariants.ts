/**
 * What must hold for a run record, read straight from disk and git — independent of the
 * process that wrote it. Each check returns a list of problems (empty = fine) so a test
 * can run many trials and report every broken one at once.
 */
import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { readJournal } from '../../../src/run/journal.js';
import { type Manifest, readManifest } from '../../../src/run/manifest.js';
import { candidatePaths, iterationPaths, runPaths } from '../../../src/run/paths.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { formatResultsTsv } from '../../../src/run/results-tsv.js';
import type { RunState } from '../../../src/run/run-state.js';
import type { RunEvent } from '../../../src/run/events.js';
import type { RunSummary } from '../../../src/run/run-summary.js';
import { runCli } from './cli.js';
import type { Project } from './project.js';

export interface RunRecord {
  events: RunEvent[];
  tornTail: boolean;
  state: RunState;
  manifest: Manifest;
}

export async function readRunRecord(runDir: string): Promise<RunRecord> {
  const journal = await readJournal(runDir);
  return {
    events: journal.events,
    tornTail: journal.tornTail,
    state: reduceRun(journal.events),
    manifest: await readManifest(runDir),
  };
}

/** Every `*.json` file under the run folder (cache included) parses. */
export async function findJsonProblems(runDir: string): Promise<string[]> {
  const problems: string[] = [];
  const entries = await readdir(runDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const file = join(entry.parentPath, entry.name);
    try {
      JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      problems.push(`${file.slice(runDir.length + 1)} does not parse: ${(error as Error).message}`);
    }
  }
  return problems;
}

/** Iteration numbers are 0..n-1 with no gap, and every finished one left its decision.json. */
export function contiguityProblems(runDir: string, state: RunState): string[] {
  const problems: string[] = [];
  const numbers = state.iterations.map((it) => it.iteration);
  const expected = numbers.map((_n, index) => index);
  if (numbers.join(',') !== expected.join(',')) problems.push(`iteration numbers are ${numbers.join(',')}`);
  if (state.open && state.open.iteration !== numbers.length && !numbers.includes(state.open.iteration)) {
    problems.push(`the open iteration ${state.open.iteration} leaves a gap after ${numbers.join(',')}`);
  }
  for (const record of state.iterations) {
    if (record.status === 'interrupted') continue;
    if (!existsSync(iterationPaths(runDir, record.iteration).decision)) {
      problems.push(`iteration ${record.iteration} (${record.status}) has no decision.json`);
    }
  }
  return problems;
}

/** What a killed run must still satisfy: readable, parseable, contiguous. */
export async function checkKilledRun(runDir: string): Promise<string[]> {
  const record = await readRunRecord(runDir);
  return [...(await findJsonProblems(runDir)), ...contiguityProblems(runDir, record.state)];
}

interface LoggedCommit {
  sha: string;
  runId: string;
  iteration: number | null;
  files: string[];
}

async function runCommits(project: Project, base: string, branch: string): Promise<LoggedCommit[]> {
  const format =
    '%x1e%H%x1f%(trailers:key=Autoresearch-Run,valueonly)%x1f%(trailers:key=Autoresearch-Iteration,valueonly)%x1f';
  const out = await project.repo.git([
    'log',
    '--reverse',
    `--format=${format}`,
    '--name-only',
    `${base}..${branch}`,
  ]);
  return out
    .split('\x1e')
    .slice(1)
    .map((record) => {
      const [sha = '', runId = '', iteration = '', rest = ''] = record.split('\x1f');
      const number = iteration.trim();
      return {
        sha: sha.trim(),
        runId: runId.trim(),
        iteration: /^\d+$/.test(number) ? Number(number) : null,
        files: rest.split('\n').filter((line) => line.trim() !== ''),
      };
    });
}

/** Every keep has exactly one commit and every commit one keep; head, best.md and the best prompt agree. */
export async function gitProblems(project: Project, runDir: string, record: RunRecord): Promise<string[]> {
  const { state, manifest, events } = record;
  if (!manifest.git) return ['the run has no git binding'];
  const { base, branch } = manifest.git;
  const problems: string[] = [];
  const commits = await runCommits(project, base, branch);
  const keeps = state.iterations.filter((it) => it.status === 'keep');
  for (const commit of commits) {
    if (commit.runId !== manifest.runId)
      problems.push(`commit ${commit.sha} is not this run's (${commit.runId})`);
    if (commit.files.join(',') !== project.promptPath) {
      problems.push(`commit ${commit.sha} changes ${commit.files.join(', ')}, not only the prompt`);
    }
  }
  const committed = commits.map((c) => c.iteration);
  const kept = keeps.map((k) => k.iteration);
  if (committed.join(',') !== kept.join(',')) {
    problems.push(`commits are for iterations [${committed.join(',')}], keeps are [${kept.join(',')}]`);
  }
  for (const keep of keeps) {
    const commit = commits.find((c) => c.iteration === keep.iteration);
    if (commit && keep.commit !== commit.sha) {
      problems.push(`keep ${keep.iteration} records commit ${keep.commit}, git has ${commit.sha}`);
    }
    const journaled = events.filter((e) => e.type === 'commit' && e.iteration === keep.iteration);
    if (journaled.length !== 1) problems.push(`keep ${keep.iteration} has ${journaled.length} commit events`);
    if (commit) {
      const text = await showFile(project, commit.sha, project.promptPath);
      const prompt = await readFile(
        candidatePaths(runDir, keep.iteration, keep.candidate ?? 0).prompt,
        'utf8',
      );
      if (text !== prompt) problems.push(`the commit of keep ${keep.iteration} does not hold its prompt.md`);
    }
  }
  const stray = events.flatMap((e) =>
    e.type === 'commit' && !kept.includes(e.iteration) ? [e.iteration] : [],
  );
  if (stray.length > 0) problems.push(`commit events for non-keeps: ${stray.join(',')}`);

  const head = (await project.repo.git(['rev-parse', `refs/heads/${branch}`])).trim();
  const expectedHead = commits.at(-1)?.sha ?? base;
  if (head !== expectedHead)
    problems.push(`branch head ${head} is not the last keep's commit ${expectedHead}`);
  const incumbent = state.incumbent;
  if (!incumbent) return [...problems, 'no incumbent'];
  const incumbentRecord = state.iterations.find((it) => it.iteration === incumbent.iteration);
  const bestPrompt = await readFile(
    candidatePaths(runDir, incumbent.iteration, incumbentRecord?.candidate ?? 0).prompt,
    'utf8',
  );
  const bestMd = await readFile(runPaths(runDir).best, 'utf8');
  const headPrompt = await showFile(project, head, project.promptPath);
  if (bestMd !== bestPrompt)
    problems.push(`best.md differs from iteration ${incumbent.iteration}'s prompt.md`);
  if (headPrompt !== bestPrompt) problems.push(`the branch head's prompt differs from the best prompt`);
  return problems;
}

/** A file's bytes at a revision, exactly (execa would strip the final newline). */
async function showFile(project: Project, rev: string, path: string): Promise<string> {
  const result = await execa('git', ['show', `${rev}:${path}`], {
    cwd: project.dir,
    env: project.env,
    extendEnv: false,
    stripFinalNewline: false,
  });
  return result.stdout;
}

/** results.tsv is exactly what the journal folds to. */
export async function resultsProblems(runDir: string, state: RunState): Promise<string[]> {
  const onDisk = await readFile(runPaths(runDir).results, 'utf8');
  const derived = formatResultsTsv(state);
  if (onDisk === derived) return [];
  const a = onDisk.split('\n');
  const b = derived.split('\n');
  const row = a.findIndex((line, index) => line !== b[index]);
  return [`results.tsv row ${row} is "${a[row]}", the journal gives "${b[row]}"`];
}

export async function runsStatus(main: string, project: Project, runId: string): Promise<string | undefined> {
  const result = await runCli(main, ['runs', '--json'], { cwd: project.dir, env: project.env });
  if (result.exitCode !== 0) return `runs --json failed: ${result.stderr}`;
  const runs = JSON.parse(result.stdout) as RunSummary[];
  return runs.find((r) => r.id === runId)?.status;
}

/** Everything a run that was crashed and resumed to its end must satisfy. */
export async function checkFinishedRun(main: string, project: Project, runDir: string): Promise<string[]> {
  const record = await readRunRecord(runDir);
  const { state } = record;
  const problems = [
    ...(await findJsonProblems(runDir)),
    ...contiguityProblems(runDir, state),
    ...(await gitProblems(project, runDir, record)),
    ...(await resultsProblems(runDir, state)),
  ];
  if (record.tornTail) problems.push('the journal ends in a torn line');
  if (state.open) problems.push(`iteration ${state.open.iteration} is still open`);
  const interrupted = state.iterations.filter((it) => it.status === 'interrupted');
  if (interrupted.length > 0)
    problems.push(`iterations left interrupted: ${interrupted.map((it) => it.iteration)}`);
  if (!state.finalEvaluation) problems.push('no final evaluation');
  const status = await runsStatus(main, project, record.manifest.runId);
  if (status !== 'finished') problems.push(`runs --json says ${status}`);
  return problems;
}

/**
 * Finished work a resume did again: any event of an iteration's work (its start, proposals,
 * scores, phases) journaled after that iteration finished. Only an interrupted iteration is
 * redone; a keep's commit may follow its decision, and the final check names the best one.
 */
export function redoneIterations(events: readonly RunEvent[]): string[] {
  const done = new Set<number>();
  const problems: string[] = [];
  for (const [index, event] of events.entries()) {
    const iteration = 'iteration' in event ? event.iteration : undefined;
    if (iteration === undefined) continue;
    const work =
      event.type === 'iteration_started' ||
      event.type === 'proposal' ||
      event.type === 'candidate_evaluated' ||
      event.type === 'iteration_finished' ||
      event.type === 'parent_chosen' ||
      event.type === 'candidate_decided' ||
      event.type === 'pool_member' ||
      (event.type === 'phase' && event.phase !== 'committing' && event.phase !== 'final');
    if (work && done.has(iteration)) {
      problems.push(`event ${index} (${event.type}) redoes iteration ${iteration}, already finished`);
    }
    if (event.type === 'iteration_finished' && event.status !== 'interrupted') done.add(iteration);
  }
  return problems;
}

/** The decisions of a run, for comparing a crashed-and-resumed run with an uninterrupted one. */
export function decisionsOf(state: RunState) {
  return {
    iterations: state.iterations.map((it) => ({
      iteration: it.iteration,
      status: it.status,
      candidate: it.candidate,
      train: it.train,
      holdout: it.holdout,
      delta: it.delta,
      promptSha256: it.promptSha256,
      hypothesis: it.hypothesis,
      // Paired acceptance (docs/design/paired-acceptance.md): the interval a decision used and the
      // screen; null otherwise.
      paired: it.paired,
      screen: it.screen,
    })),
    finalEvaluation: state.finalEvaluation,
    // The pareto search (docs/design/pareto-search.md): members, parent choices, every candidate's
    // outcome; null otherwise.
    pool: state.pool,
  };
}
