/**
 * The labelled outputs through the experiment's own judge and grader, exactly as an evaluation
 * sends outputs (docs/design/judge-reliability.md): one judging of every output with labelled
 * scores — in the judge's usual sandbox, shuffled under neutral names, the case's inputs beside an
 * output under `judging.inputs` — and one grading per output with labelled expectations. What comes
 * back is each label with the judge's scores and the grader's verdicts beside the human's.
 */
import pLimit from 'p-limit';
import type { Case, Experiment, Rubric } from '../experiment/types.js';
import type { Grader } from '../grader/grader.js';
import { caseInputsFor } from '../protocol/case-inputs.js';
import type { Judge, JudgeOutput, JudgeResult } from '../judge/judge.js';
import type { ProviderError } from '../providers/types.js';
import type { LabelledOutput } from './calibration-file.js';
import type { Label } from './labels.js';

/** The grader's transcript names the generator; a labelled output's is not recorded. */
export const LABELLED_MODEL = 'unknown (a labelled output; its model is not recorded)';

export interface ReviewLabelsInput {
  experiment: Experiment;
  labels: readonly Label[];
  judge?: Judge;
  grader?: Grader;
  seed: number;
  signal: AbortSignal;
  /** The ledger account the calls go on. */
  account: string;
}

export type ReviewedLabels =
  | { ok: true; outputs: LabelledOutput[]; judged: JudgeOutput[] }
  | { ok: false; who: 'judge' | 'grader'; message: string; providerError?: ProviderError };

/** The caseId a label's output carries through the judge (never shown to it). */
export function labelOutputId(label: Pick<Label, 'index'>): string {
  return `label-${label.index}`;
}

export async function reviewLabels(input: ReviewLabelsInput): Promise<ReviewedLabels> {
  const { experiment, labels } = input;
  const cases = new Map<string, Case>(experiment.cases.map((c) => [c.id, c]));
  const inputs = caseInputsFor(experiment.config.judging, experiment.cases);
  const inputOf = (label: Label): { input?: string } => {
    const text = label.caseId === null ? undefined : inputs?.get(label.caseId);
    return text === undefined ? {} : { input: text };
  };
  const judged: JudgeOutput[] = labels
    .filter((l) => Object.keys(l.scores).length > 0)
    .map((l) => ({ caseId: labelOutputId(l), sample: 0, text: l.output, ...inputOf(l) }));

  const judging = judgeAll(input.judge, experiment.rubric, judged, input);
  const grading = gradeAll(input, cases, inputOf);
  const [judgement, gradings] = await Promise.all([judging, grading]);
  if (judgement !== null && !judgement.ok) {
    return {
      ok: false,
      who: 'judge',
      message: judgement.message,
      ...(judgement.providerError ? { providerError: judgement.providerError } : {}),
    };
  }
  const failedGrading = [...gradings.values()].find((g) => !g.ok);
  if (failedGrading !== undefined && !failedGrading.ok) {
    return {
      ok: false,
      who: 'grader',
      message: failedGrading.message,
      ...(failedGrading.providerError ? { providerError: failedGrading.providerError } : {}),
    };
  }
  const byId = new Map((judgement?.ok ? judgement.perOutput : []).map((o) => [o.caseId, o]));
  const outputs = labels.map((label): LabelledOutput => {
    const scored = byId.get(labelOutputId(label));
    const grading = gradings.get(label.index);
    const verdicts = new Map(
      (grading?.ok ? grading.grading.expectations : []).map((e) => [e.text.trim(), e]),
    );
    return {
      label: label.index,
      line: label.line,
      case: label.caseId,
      file: label.file,
      human: label.scores,
      judge: scored?.criteria ?? {},
      reasoning: scored?.reasoning ?? null,
      expectations: label.expectations.map((e) => {
        const verdict = verdicts.get(e.text.trim());
        return {
          text: e.text,
          human: e.pass,
          grader: verdict?.passed ?? false,
          ...(verdict?.flag === undefined ? {} : { flag: verdict.flag }),
        };
      }),
    };
  });
  return { ok: true, outputs, judged };
}

async function judgeAll(
  judge: Judge | undefined,
  rubric: Rubric | undefined,
  outputs: JudgeOutput[],
  input: ReviewLabelsInput,
): Promise<JudgeResult | null> {
  if (judge === undefined || rubric === undefined || outputs.length === 0) return null;
  const session = judge.open({ signal: input.signal, account: input.account });
  try {
    return await session.judge({ outputs, rubric, seed: input.seed });
  } finally {
    await session.close();
  }
}

type Graded =
  | { ok: true; grading: Extract<Awaited<ReturnType<Grader['grade']>>, { ok: true }>['grading'] }
  | { ok: false; message: string; providerError?: ProviderError };

async function gradeAll(
  input: ReviewLabelsInput,
  cases: ReadonlyMap<string, Case>,
  inputOf: (label: Label) => { input?: string },
): Promise<Map<number, Graded>> {
  const graded = new Map<number, Graded>();
  const { grader } = input;
  const labelled = input.labels.filter((l) => l.expectations.length > 0);
  if (grader === undefined || labelled.length === 0) return graded;
  const limit = pLimit(Math.max(1, input.experiment.config.concurrency));
  await Promise.all(
    labelled.map((label) =>
      limit(async () => {
        const result = await grader.grade(
          {
            expectations: label.expectations.map((e) => e.text),
            vars: (label.caseId === null ? undefined : cases.get(label.caseId))?.vars ?? {},
            model: LABELLED_MODEL,
            ...inputOf(label),
            outputs: [{ sample: 0, text: label.output }],
          },
          { signal: input.signal, account: input.account },
        );
        graded.set(
          label.index,
          result.ok
            ? { ok: true, grading: result.grading }
            : {
                ok: false,
                message: `label on line ${label.line}: ${result.message}`,
                ...(result.providerError ? { providerError: result.providerError } : {}),
              },
        );
      }),
    ),
  );
  return graded;
}
