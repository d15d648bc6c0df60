/**
 * Reads a whole run folder for review: journal, manifest, best prompt and every iteration's
 * artifacts. Tolerant by design: a missing file is simply absent, and a damaged one becomes a
 * problem line instead of an exception, so a report always renders.
 */
import { basename, join } from 'node:path';
import { isAutoresearchError } from '../errors.js';
import { readJournal } from '../run/journal.js';
import { readLockStatus } from '../run/lock.js';
import { readManifest, type Manifest } from '../run/manifest.js';
import { candidatePaths, iterationPaths, runPaths } from '../run/paths.js';
import { listNames, readJsonRecord, readTextOrNull } from './read-json-record.js';
import type {
  AgentCaseFolder,
  CandidateFolder,
  GradingEntry,
  IterationFolder,
  OutputFile,
  RunFolder,
} from './run-folder.js';
import { AGENT_RECORD_FILES } from '../agent/agent-record.js';

/** Outputs longer than this are cut in the report (the file on disk stays whole). */
export const MAX_OUTPUT_CHARS = 20_000;

export async function readRunFolder(runDir: string): Promise<RunFolder> {
  const problems: string[] = [];
  const paths = runPaths(runDir);
  const journal = await readJournal(runDir, { onInvalid: 'collect' });
  for (const invalid of journal.invalidLines)
    problems.push(`events.jsonl line ${invalid.line}: ${invalid.message}`);
  const [manifest, bestPrompt, iterations, lock] = await Promise.all([
    readManifestTolerantly(runDir, problems),
    readTextOrNull(paths.best),
    readIterations(runDir, problems),
    readLockStatus(runDir),
  ]);
  return {
    id: basename(runDir),
    dir: runDir,
    events: journal.events,
    manifest,
    bestPrompt,
    iterations,
    liveLock: lock.state === 'held',
    problems,
  };
}

async function readManifestTolerantly(runDir: string, problems: string[]): Promise<Manifest | null> {
  try {
    return await readManifest(runDir);
  } catch (error) {
    if (!isAutoresearchError(error)) throw error;
    if (error.code !== 'E_NOT_FOUND') problems.push(error.message);
    return null;
  }
}

async function readIterations(runDir: string, problems: string[]): Promise<IterationFolder[]> {
  const names = await listNames(runPaths(runDir).iterations);
  const numbers = names.filter((name) => /^\d{4,}$/.test(name)).map(Number);
  numbers.sort((a, b) => a - b);
  return Promise.all(numbers.map((iteration) => readIteration(runDir, iteration, problems)));
}

export async function readIteration(
  runDir: string,
  iteration: number,
  problems: string[],
): Promise<IterationFolder> {
  const paths = iterationPaths(runDir, iteration);
  const names = await listNames(paths.candidates);
  const numbers = names.filter((name) => /^\d+$/.test(name)).map(Number);
  numbers.sort((a, b) => a - b);
  const [mutation, decision, candidates] = await Promise.all([
    readJsonRecord(paths.mutation, problems),
    readJsonRecord(paths.decision, problems),
    Promise.all(numbers.map((candidate) => readCandidate(runDir, iteration, candidate, problems))),
  ]);
  return { iteration, mutation, decision, candidates };
}

async function readCandidate(
  runDir: string,
  iteration: number,
  candidate: number,
  problems: string[],
): Promise<CandidateFolder> {
  const paths = candidatePaths(runDir, iteration, candidate);
  const [prompt, outputs, checks, judgeScores, judgeMap, evaluation, grading] = await Promise.all([
    readTextOrNull(paths.prompt),
    readOutputs(paths.outputs),
    readJsonRecord(paths.checks, problems),
    readJsonRecord(paths.judgeScores, problems),
    readJsonRecord(paths.judgeMap, problems),
    readJsonRecord(paths.evaluation, problems),
    readGrading(paths.grading, problems),
  ]);
  const agent = await readAgentFolders(join(paths.dir, 'agent'), problems);
  return { candidate, prompt, outputs, checks, judgeScores, judgeMap, evaluation, grading, agent };
}

async function readAgentFolders(dir: string, problems: string[]): Promise<AgentCaseFolder[]> {
  const folders: AgentCaseFolder[] = [];
  for (const name of await listNames(dir)) {
    const match = /^(.+)\.(\d+)$/.exec(name);
    if (!match) continue;
    const [record, transcript] = await Promise.all([
      readJsonRecord(join(dir, name, AGENT_RECORD_FILES.record), problems),
      readTextOrNull(join(dir, name, AGENT_RECORD_FILES.transcript)),
    ]);
    folders.push({
      caseId: match[1] as string,
      sample: Number(match[2]),
      record,
      transcript: transcript === null ? null : transcript.slice(0, MAX_OUTPUT_CHARS),
      transcriptTruncated: transcript !== null && transcript.length > MAX_OUTPUT_CHARS,
    });
  }
  return folders;
}

async function readOutputs(dir: string): Promise<OutputFile[]> {
  const files: OutputFile[] = [];
  for (const name of await listNames(dir)) {
    // `<case-id>.<sample>.txt`; case ids may themselves hold dots.
    const match = /^(.+)\.(\d+)\.txt$/.exec(name);
    if (!match) continue;
    const text = (await readTextOrNull(join(dir, name))) ?? '';
    files.push({
      caseId: match[1] as string,
      sample: Number(match[2]),
      text: text.length > MAX_OUTPUT_CHARS ? text.slice(0, MAX_OUTPUT_CHARS) : text,
      truncated: text.length > MAX_OUTPUT_CHARS,
    });
  }
  return files.sort((a, b) => (a.caseId === b.caseId ? a.sample - b.sample : a.caseId < b.caseId ? -1 : 1));
}

async function readGrading(dir: string, problems: string[]): Promise<GradingEntry[]> {
  const entries: GradingEntry[] = [];
  for (const name of await listNames(dir)) {
    if (!name.endsWith('.json')) continue;
    const value = await readJsonRecord(join(dir, name), problems);
    if (value !== null) entries.push({ caseId: name.slice(0, -'.json'.length), value });
  }
  return entries;
}
