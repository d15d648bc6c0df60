/**
 * A candidate evaluated in two stages into one record folder (docs/design/paired-acceptance.md
 * screening): first a minibatch of cases, then — only when `proceed` says so — the rest. The folder
 * ends as one evaluation: every output, the checks, the judge's scores and the gradings of both
 * stages, scored together as if evaluated at once. A screened-out candidate's folder holds its
 * minibatch alone.
 *
 * The judge sees each stage separately (two sessions with their own neutral file names), so
 * in the combined judge-map.json and judge-scores.json each file name carries its stage
 * (`screen/…`, `rest/…`) and no two outputs share one.
 */
import { summariseScores } from '../judge/judge-scores.js';
import { combinePanels } from '../judge/panel-scores.js';
import type { CandidatePaths } from '../run/paths.js';
import { evaluateCandidate } from './evaluate-candidate.js';
import type {
  CandidateOutcome,
  EvaluateDeps,
  EvaluatedCandidate,
  EvaluateInput,
  EvaluationResult,
  JudgeSuccess,
  ScreenStage,
} from './evaluate-types.js';
import { scoreCandidate } from './score-candidate.js';
import { createCandidateRecordWriter } from './write-candidate.js';

/** `input.cases` is the minibatch; `screen.rest` follows it into the same folder when `screen.proceed` says so. */
export async function evaluateStaged(
  paths: CandidatePaths,
  input: EvaluateInput,
  screen: ScreenStage,
  deps: EvaluateDeps,
): Promise<EvaluationResult> {
  const { rest } = screen;
  const writer = createCandidateRecordWriter(paths);
  // Checks are written once, for both stages, by finish(). Agent cases keep their records in the
  // same folder as an unstaged evaluation's (evaluate-and-record.ts).
  const stageDeps: EvaluateDeps = {
    ...deps,
    agentRecordDir: paths.agent,
    onGenerated: (generation) => writer.output(generation),
  };
  try {
    const first = await evaluateCandidate(input, stageDeps);
    if (!first.ok || rest.length === 0 || !screen.proceed(first)) {
      await writer.finish(first);
      return { outcome: first, ...(first.ok ? { firstStage: first } : {}), proceeded: false };
    }
    const more = await evaluateCandidate({ ...input, cases: rest }, stageDeps);
    const outcome: CandidateOutcome = more.ok
      ? combineStages(input, rest, first, more)
      : {
          ...more,
          generations: [...first.generations, ...more.generations],
          costUsd: first.costUsd + more.costUsd,
        };
    await writer.finish(outcome);
    return { outcome, firstStage: first, proceeded: true };
  } catch (error) {
    await writer.settle();
    throw error;
  }
}

function combineStages(
  input: EvaluateInput,
  rest: EvaluateInput['cases'],
  screen: EvaluatedCandidate,
  more: EvaluatedCandidate,
): EvaluatedCandidate {
  const generations = [...screen.generations, ...more.generations];
  const gradings = [...screen.gradings, ...more.gradings];
  const judge = combineJudges(screen.judge, more.judge);
  const scored = scoreCandidate({
    experiment: input.experiment,
    cases: [...input.cases, ...rest],
    samples: input.samples,
    generations,
    checks: [...screen.evaluation.checks, ...more.evaluation.checks],
    judged: screen.evaluation.judge !== undefined,
    ...(judge === undefined ? {} : { judge }),
    gradings,
  });
  return {
    ok: true,
    ...scored,
    generations,
    ...(judge === undefined ? {} : { judge }),
    gradings,
    costUsd: screen.costUsd + more.costUsd,
  };
}

function combineJudges(a: JudgeSuccess | undefined, b: JudgeSuccess | undefined): JudgeSuccess | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const staged = (stage: string, judge: JudgeSuccess) => ({
    perOutput: judge.perOutput.map((o) => ({ ...o, file: `${stage}/${o.file}` })),
    map: judge.map.map((m) => ({ ...m, file: `${stage}/${m.file}` })),
  });
  const first = staged('screen', a);
  const second = staged('rest', b);
  const perOutput = [...first.perOutput, ...second.perOutput];
  return {
    ...a,
    ...summariseScores(perOutput, Object.keys(a.criteriaAverages)),
    perOutput,
    map: [...first.map, ...second.map],
    raw: { screen: a.raw, rest: b.raw },
    attempts: a.attempts + b.attempts,
    ...(a.panel === undefined || b.panel === undefined ? {} : { panel: combinePanels(a.panel, b.panel) }),
  };
}
