/**
 * Everything the loop talks to, passed in: the loaded experiment (overrides applied), the
 * recorder (journal + state), the model pool, the judge and grader, git (or null: commits
 * off), the clock, the abort signal and the stop flag. Tests drive whole runs by swapping these.
 */
import type { RunAgent } from '../agent/agent-run.js';
import { agentCacheDir } from '../run/paths.js';
import type { EvaluateDeps } from '../evaluate/evaluate-types.js';
import type { Case, Experiment } from '../experiment/types.js';
import type { GitRepo } from '../git/index.js';
import type { Grader } from '../grader/grader.js';
import type { Judge } from '../judge/judge.js';
import type { BatchRunner } from '../providers/batch/batch-runner.js';
import type { ModelPool } from '../providers/model-pool.js';
import type { SearchStrategy } from '../search/strategy.js';
import type { RunRecorder } from './run-recorder.js';
import type { SpendMeter } from './spend.js';

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
  /** The search (src/search/strategy.ts): greedy, pareto, or a test's own. */
  strategy: SearchStrategy;
  pool: ModelPool;
  git: GitBinding | null;
  now: () => Date;
  signal: AbortSignal;
  /** `autoresearch stop` was asked: finish the current iteration, then stop. */
  stopRequested: () => boolean;
  env: NodeJS.ProcessEnv;
  /** Needed when the experiment has a rubric (the CLI passes the sandboxed judge). */
  judge?: Judge;
  /** Needed when the experiment has a grader and expectations. */
  grader?: Grader;
  /** The plan's estimate for one iteration, used for budget checks before any iteration ran. */
  planEstimate?: { usd: number | null; seconds: number | null };
  /** `--batch` (docs/design/cost-engine.md): evaluations submit their calls as batches first. */
  batch?: BatchRunner;
  /** Needed by an agent experiment (docs/design/agent-runs.md): who runs its cases. */
  agent?: RunAgent;
  /** Test-only: the named points of the loop that journal nothing (see kill-point.ts). */
  checkpoint?: (point: string) => void;
}

/**
 * The deps within one runLoop call, with the meter that journals the ledger's growth. Its
 * experiment holds the loop's cases only; the sealed test cases wait in `testCases` for the
 * final evaluation (docs/design/paired-acceptance.md).
 */
export interface LoopRun extends LoopDeps {
  spend: SpendMeter;
  testCases: readonly Case[];
}

/**
 * The run's parts for one evaluation: the pool, the judge and grader, and the batch runner
 * (docs/design/cost-engine.md) with its batches journaled under `iteration`.
 */
export function evaluationDeps(deps: LoopDeps, iteration: number): EvaluateDeps {
  const runner = deps.batch;
  return {
    pool: deps.pool,
    signal: deps.signal,
    env: deps.env,
    ...(deps.judge === undefined ? {} : { judge: deps.judge }),
    ...(deps.grader === undefined ? {} : { grader: deps.grader }),
    ...(deps.agent === undefined ? {} : { agent: deps.agent, agentCacheDir: agentCacheDir(deps.runDir) }),
    ...(runner === undefined
      ? {}
      : { batch: (calls, phase) => runner.run(calls, { iteration, phase }, deps.signal) }),
  };
}
