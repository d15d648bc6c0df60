/**
 * The product's judge and grader for an experiment, built once per run by the CLI shell and
 * passed to the loop and the evaluation as parts: each a sandboxed program talking to the
 * models through the run's pool.
 */
import { entryLabel, isPanel } from '../experiment/judge-panel.js';
import type { JudgeEntry } from '../experiment/schema.js';
import type { Experiment } from '../experiment/types.js';
import type { Grader } from '../grader/grader.js';
import { createSandboxedGrader } from '../grader/sandboxed-grader.js';
import type { Judge } from '../judge/judge.js';
import { createPanelJudge } from '../judge/panel-judge.js';
import { createSandboxedJudge } from '../judge/sandboxed-judge.js';
import { runIsolation } from '../sandbox/run-isolation.js';
import { resolveLimits } from '../sandbox/sandbox-limits.js';
import type { ModelPool } from '../providers/model-pool.js';

export interface ReviewParts {
  judge?: Judge;
  grader?: Grader;
}

export function createSandboxedReview(
  experiment: Experiment,
  pool: ModelPool,
  options: { cliEntry?: string; env?: NodeJS.ProcessEnv } = {},
): ReviewParts {
  const { judge, grader } = experiment.models;
  const common = {
    commandCwd: experiment.dir,
    // docs/design/isolation.md: bubblewrap where it works, unless the experiment says `process`.
    ...(judge === undefined && grader === undefined ? {} : { isolation: runIsolation(experiment) }),
    limits: resolveLimits(experiment.config.judging.limits),
    ...(options.cliEntry === undefined ? {} : { cliEntry: options.cliEntry }),
    ...(options.env === undefined ? {} : { env: options.env }),
  };
  const judgeOf = (entry: JudgeEntry, member?: number) =>
    createSandboxedJudge({
      entry,
      ...(pool.has('judge', member) ? { client: pool.client('judge', member) } : {}),
      ...common,
    });
  return {
    ...(judge === undefined
      ? {}
      : {
          // A panel (docs/design/judge-reliability.md): each member its own sandboxed judge, on its
          // own client.
          judge: isPanel(judge)
            ? createPanelJudge(
                judge.panel.map((entry, member) => ({
                  judge: judgeOf(entry, member),
                  label: entryLabel(entry),
                })),
                judge.aggregate,
              )
            : judgeOf(judge),
        }),
    ...(grader === undefined
      ? {}
      : {
          grader: createSandboxedGrader({
            entry: grader,
            ...(pool.has('grader') ? { client: pool.client('grader') } : {}),
            ...common,
          }),
        }),
  };
}
