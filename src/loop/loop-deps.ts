/**
 * Everything the loop talks to, passed in: the loaded experiment (overrides applied), the
 * recorder (journal + state), the model pool, git (or null: commits off), the clock, the
 * abort signal and the stop flag. Tests drive whole runs by swapping these.
 */
import type { Experiment } from '../experiment/types.js';
import type { GitRepo } from '../git/index.js';
import type { ModelPool } from '../providers/model-pool.js';
import type { RunRecorder } from './run-recorder.js';

export interface GitBinding {
  repo: GitRepo;
  branch: string;
  /** The prompt file's absolute path (inside the repository). */
  promptPath: string;
}

export interface LoopDeps {
  experiment: Experiment;
  runId: string;
  runDir: string;
  recorder: RunRecorder;
  pool: ModelPool;
  git: GitBinding | null;
  now: () => Date;
  signal: AbortSignal;
  /** `autoresearch stop` was asked: finish the current iteration, then stop. */
  stopRequested: () => boolean;
  env: NodeJS.ProcessEnv;
  cliEntry?: string;
  /** The plan's estimate for one iteration, used for budget checks before any iteration ran. */
  planEstimate?: { usd: number | null; seconds: number | null };
  /** Test-only: the named points of the loop that journal nothing (see kill-point.ts). */
  checkpoint?: (point: string) => void;
}
