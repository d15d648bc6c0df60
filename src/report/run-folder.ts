/**
 * A run folder as read from disk, before any interpretation: the journal, the manifest and
 * every iteration's artifacts as raw JSON. Any file may be missing (an error iteration, a run
 * without a rubric, an older run); the pure builders decide what each one means.
 */
import type { RunEvent } from '../run/events.js';
import type { Manifest } from '../run/manifest.js';

export interface OutputFile {
  caseId: string;
  sample: number;
  text: string;
  /** The file was longer than the report keeps; `text` is its beginning. */
  truncated: boolean;
}

/** An agent case's record folder (docs/design/agent-runs.md): agent.json raw, the transcript's beginning. */
export interface AgentCaseFolder {
  caseId: string;
  sample: number;
  record: unknown;
  transcript: string | null;
  transcriptTruncated: boolean;
}

export interface GradingEntry {
  caseId: string;
  value: unknown;
}

export interface CandidateFolder {
  candidate: number;
  prompt: string | null;
  outputs: OutputFile[];
  /** Parsed JSON, or null when the file is missing or unreadable. */
  checks: unknown;
  judgeScores: unknown;
  judgeMap: unknown;
  /** evaluation.json (a finished evaluation only): the report reads each case's split from it. */
  evaluation: unknown;
  grading: GradingEntry[];
  /** An agent run's cases; empty for a run of model calls. */
  agent: AgentCaseFolder[];
}

export interface IterationFolder {
  iteration: number;
  mutation: unknown;
  decision: unknown;
  candidates: CandidateFolder[];
}

export interface RunFolder {
  id: string;
  dir: string;
  events: RunEvent[];
  manifest: Manifest | null;
  bestPrompt: string | null;
  iterations: IterationFolder[];
  /** A live process holds the run's lock. */
  liveLock: boolean;
  /** Files that exist but could not be read or parsed, for a person to look at. */
  problems: string[];
}
