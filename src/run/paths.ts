/**
 * The run folder layout (docs/design/run-records.md), in one place so every writer and reader
 * agrees:
 *
 *   runs/<run-id>/ manifest.json events.jsonl results.tsv best.md report.html cache/
 *     iterations/NNNN/ mutation.json decision.json
 *       candidates/<k>/ prompt.md outputs/<case-id>.<sample>.txt checks.json
 *                       judge-scores.json judge-map.json grading/<case-id>.json
 */
import { join } from 'node:path';

export const RUN_FILES = {
  manifest: 'manifest.json',
  events: 'events.jsonl',
  results: 'results.tsv',
  best: 'best.md',
  report: 'report.html',
  lock: 'run.lock',
} as const;

export interface RunPaths {
  dir: string;
  manifest: string;
  events: string;
  results: string;
  best: string;
  report: string;
  lock: string;
  iterations: string;
  cache: string;
}

export function runPaths(runDir: string): RunPaths {
  return {
    dir: runDir,
    manifest: join(runDir, RUN_FILES.manifest),
    events: join(runDir, RUN_FILES.events),
    results: join(runDir, RUN_FILES.results),
    best: join(runDir, RUN_FILES.best),
    report: join(runDir, RUN_FILES.report),
    lock: join(runDir, RUN_FILES.lock),
    iterations: join(runDir, 'iterations'),
    cache: join(runDir, 'cache'),
  };
}

/** `0007`: four digits so folders sort in order (more digits past 9999). */
export function formatIterationNumber(iteration: number): string {
  if (!Number.isInteger(iteration) || iteration < 0) {
    throw new RangeError(`iteration must be a non-negative integer, got ${iteration}`);
  }
  return String(iteration).padStart(4, '0');
}

export interface IterationPaths {
  dir: string;
  mutation: string;
  decision: string;
  candidates: string;
}

export function iterationPaths(runDir: string, iteration: number): IterationPaths {
  const dir = join(runDir, 'iterations', formatIterationNumber(iteration));
  return {
    dir,
    mutation: join(dir, 'mutation.json'),
    decision: join(dir, 'decision.json'),
    candidates: join(dir, 'candidates'),
  };
}

export interface CandidatePaths {
  dir: string;
  prompt: string;
  outputs: string;
  checks: string;
  judgeScores: string;
  judgeMap: string;
  /** The scoring input and scores of a finished evaluation; what a resume reads. */
  evaluation: string;
  grading: string;
  /** `outputs/<case-id>.<sample>.txt`; samples are numbered from 0. */
  output(caseId: string, sample: number): string;
  /** `grading/<case-id>.json`. */
  caseGrading(caseId: string): string;
  /** An agent case's record folder, `agent/<case-id>.<sample>/` (docs/design/agent-runs.md). */
  agent(caseId: string, sample: number): string;
}

export function candidatePaths(runDir: string, iteration: number, candidate: number): CandidatePaths {
  if (!Number.isInteger(candidate) || candidate < 0) {
    throw new RangeError(`candidate must be a non-negative integer, got ${candidate}`);
  }
  return candidatePathsAt(join(iterationPaths(runDir, iteration).candidates, String(candidate)));
}

/** The candidate layout rooted at any folder (the final check's `final/baseline` and `final/best` too). */
export function candidatePathsAt(dir: string): CandidatePaths {
  const outputs = join(dir, 'outputs');
  const grading = join(dir, 'grading');
  return {
    dir,
    prompt: join(dir, 'prompt.md'),
    outputs,
    checks: join(dir, 'checks.json'),
    judgeScores: join(dir, 'judge-scores.json'),
    judgeMap: join(dir, 'judge-map.json'),
    evaluation: join(dir, 'evaluation.json'),
    grading,
    output: (caseId, sample) => join(outputs, `${safeCaseId(caseId)}.${sample}.txt`),
    caseGrading: (caseId) => join(grading, `${safeCaseId(caseId)}.json`),
    agent: (caseId, sample) => join(dir, 'agent', `${safeCaseId(caseId)}.${sample}`),
  };
}

// Case ids are validated as [A-Za-z0-9_.-]+, but a path must never escape its folder.
function safeCaseId(caseId: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(caseId) || caseId === '.' || caseId === '..') {
    throw new RangeError(`case id "${caseId}" cannot be used in a file name`);
  }
  return caseId;
}

/**
 * The run's cache of agents' model answers (docs/design/agent-runs.md), beside the model calls'
 * cache rather than in it: that folder's shards are the pool's alone.
 */
export function agentCacheDir(runDir: string): string {
  return join(runDir, 'agent-cache');
}
