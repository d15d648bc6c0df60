/**
 * The built-in judge's work (docs/design/judge-protocol.md): one model call per output and sample,
 * in parallel, each seeing only the rubric and that output (an agent case's whole folder) — with the input it answers when the
 * sandbox holds inputs (docs/design/prompt-shapes.md) — never its file name, so cache keys depend
 * on content only; strict JSON replies, retried when malformed; samples averaged. A checklist
 * criterion (docs/design/judge-reliability.md) is answered item by item; its score is 1 + round(4 ×
 * the share of items met), an integer 1–5 like any other.
 */
import pLimit from 'p-limit';
import { buildJudgeUserMessage, JudgeCallReply, judgeMessageHead } from '../protocol/judge-call.js';
import { type OutputFolder, presentOutputFolder } from '../protocol/output-folder.js';
import type { CompletionModel, CompletionRequest } from '../providers/types.js';
import type { ChecklistAnswers } from '../scoring/types.js';
import { judgeSystemPrompt } from './judge-prompt.js';
import {
  buildJudgeScoresFile,
  type JudgeScoresFile,
  meanOfSamples,
  type ScoredOutput,
} from './judge-scores.js';
import { DEFAULT_REPLY_ATTEMPTS, parseModelJson } from '../parse-model-json.js';

export interface BuiltinJudgeInput {
  /**
   * `input`: the case's inputs file paired with the output (`judging.inputs`), when there is one;
   * `folder`: an agent case's output folder, shown in place of `text`.
   */
  outputs: readonly { file: string; text: string; input?: string; folder?: OutputFolder }[];
  rubricText: string;
  criteria: readonly string[];
  /** The checklist criteria among `criteria`, with their items (absent: none). */
  checklists?: Readonly<Record<string, readonly string[]>>;
  model: CompletionModel;
  samples?: number;
  concurrency?: number;
  /** Tries per call when the reply is malformed (default 3). */
  maxAttempts?: number;
  signal?: AbortSignal;
}

export type BuiltinJudgeResult =
  | { ok: true; scores: JudgeScoresFile; simulated: boolean }
  | { ok: false; message: string };

export type ReplyCheck = { ok: true; reply: JudgeCallReply } | { ok: false; problem: string };

/**
 * A reply is usable when it parses, scores exactly the scale criteria (`criteria`) and answers
 * every checklist item with true or false.
 */
export function checkJudgeReply(
  text: string,
  criteria: readonly string[],
  checklists: Readonly<Record<string, readonly string[]>> = {},
): ReplyCheck {
  const parsed = parseModelJson(text, JudgeCallReply);
  if (!parsed.ok) return parsed;
  const keys = Object.keys(parsed.value.criteria_scores);
  const missing = criteria.filter((key) => !keys.includes(key));
  const extra = keys.filter((key) => !criteria.includes(key));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      missing.length > 0 ? `missing ${missing.join(', ')}` : '',
      extra.length > 0 ? `unknown ${extra.join(', ')}` : '',
    ].filter((p) => p !== '');
    return { ok: false, problem: `the reply's criteria do not match the rubric (${parts.join('; ')})` };
  }
  for (const [key, items] of Object.entries(checklists)) {
    const answers = parsed.value.items?.[key];
    if (answers?.length !== items.length)
      return {
        ok: false,
        problem: `the checklist "${key}" needs ${items.length} true/false answers, got ${answers?.length ?? 'none'}`,
      };
  }
  return { ok: true, reply: parsed.value };
}

/** A checklist's score: the share of items met, mapped onto 1–5 and rounded. */
export function checklistScore(answers: readonly boolean[]): number {
  const met = answers.filter(Boolean).length;
  return 1 + Math.round((4 * met) / Math.max(1, answers.length));
}

class MalformedReplyError extends Error {}

/**
 * One call of the built-in judge: the rubric and one output (with its input), never the file
 * name; an output folder is shown whole as one text (src/protocol/output-folder.ts). Also what a batch submits in its place (docs/design/cost-engine.md), so the judge finds the
 * answer cached.
 */
export function builtinJudgeRequest(
  input: Pick<BuiltinJudgeInput, 'rubricText' | 'criteria' | 'checklists'>,
  output: { text: string; input?: string; folder?: OutputFolder },
  sampleIndex: number,
): CompletionRequest {
  const checklists = input.checklists ?? {};
  const scaled = input.criteria.filter((key) => !(key in checklists));
  const stable = {
    rubric: input.rubricText,
    criteria: scaled,
    ...(Object.keys(checklists).length === 0
      ? {}
      : { checklists: Object.fromEntries(Object.entries(checklists).map(([k, v]) => [k, [...v]])) }),
  };
  return {
    system: judgeSystemPrompt(output.input !== undefined),
    messages: [
      {
        role: 'user',
        content: buildJudgeUserMessage({
          ...stable,
          output: output.folder === undefined ? output.text : presentOutputFolder(output.folder),
          ...(output.input === undefined ? {} : { input: output.input }),
          ...(output.folder === undefined ? {} : { folder: true }),
        }),
      },
    ],
    // The instructions, rubric and keys are the same for every output: the prompt cache's prefix.
    cacheable: { lead: judgeMessageHead(stable).length },
    sampleIndex,
  };
}

async function scoreOnce(
  input: BuiltinJudgeInput,
  output: BuiltinJudgeInput['outputs'][number],
  sampleIndex: number,
): Promise<{ reply: JudgeCallReply; simulated: boolean }> {
  const checklists = input.checklists ?? {};
  const scaled = input.criteria.filter((key) => !(key in checklists));
  const request: CompletionRequest = {
    ...builtinJudgeRequest(input, output, sampleIndex),
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  };
  const attempts = input.maxAttempts ?? DEFAULT_REPLY_ATTEMPTS;
  let problem = '';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    // A retry asks the model again: its cached entry holds the reply just found unusable.
    const result = await input.model.complete(attempt === 1 ? request : { ...request, refresh: true });
    const checked = checkJudgeReply(result.text, scaled, checklists);
    if (checked.ok) return { reply: checked.reply, simulated: result.simulated === true };
    problem = checked.problem;
  }
  throw new MalformedReplyError(`no usable reply after ${attempts} tries: ${problem}`);
}

/** The reply's score set with each checklist criterion scored from its answers. */
function withChecklistScores(
  reply: JudgeCallReply,
  checklists: Readonly<Record<string, readonly string[]>>,
): Record<string, number> {
  const scores = { ...reply.criteria_scores };
  for (const key of Object.keys(checklists)) scores[key] = checklistScore(reply.items?.[key] ?? []);
  return scores;
}

/** The first sample's answers, item by item (what `items` in judge-scores.json holds). */
function checklistAnswers(
  reply: JudgeCallReply | undefined,
  checklists: Readonly<Record<string, readonly string[]>>,
): ChecklistAnswers | undefined {
  const keys = Object.keys(checklists);
  if (reply === undefined || keys.length === 0) return undefined;
  return Object.fromEntries(
    keys.map((key) => [
      key,
      (checklists[key] ?? []).map((item, i) => ({ item, met: reply.items?.[key]?.[i] === true })),
    ]),
  );
}

export async function runBuiltinJudge(input: BuiltinJudgeInput): Promise<BuiltinJudgeResult> {
  const samples = input.samples ?? 1;
  const limit = pLimit(input.concurrency ?? 8);
  let simulated = false;
  const jobs = input.outputs.map((output) =>
    Promise.all(
      Array.from({ length: samples }, (_, sampleIndex) =>
        limit(async () => {
          const scored = await scoreOnce(input, output, sampleIndex);
          simulated ||= scored.simulated;
          return scored.reply;
        }),
      ),
    ).then((replies): ScoredOutput => {
      const sets = replies.map((r) => withChecklistScores(r, input.checklists ?? {}));
      const items = checklistAnswers(replies[0], input.checklists ?? {});
      return {
        file: output.file,
        criteria: meanOfSamples(sets, input.criteria),
        ...(samples > 1 ? { samples: sets } : {}),
        reasoning: replies[0]?.reasoning.trim() ?? '',
        ...(items === undefined ? {} : { items }),
      };
    }),
  );
  const settled = await Promise.allSettled(jobs);
  const failed = settled.findIndex((s) => s.status === 'rejected');
  if (failed >= 0) {
    const reason = (settled[failed] as PromiseRejectedResult).reason;
    const file = input.outputs[failed]?.file ?? '?';
    return { ok: false, message: `${file}: ${reason instanceof Error ? reason.message : String(reason)}` };
  }
  const scored = settled.map((s) => (s as PromiseFulfilledResult<ScoredOutput>).value);
  return { ok: true, scores: buildJudgeScoresFile(scored, input.criteria), simulated };
}
