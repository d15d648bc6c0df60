/**
 * A judge panel (docs/design/judge-reliability.md) as one Judge: every member — each a sandboxed
 * judge of its own, a model or a program — scores the same outputs side by side, under the same
 * seed (so the same neutral file names); per output and criterion the panel's score is the members'
 * median or mean. The members' own scores ride along for the record and their agreement. A member
 * that fails (after its own retries) fails the panel: the evaluation is a `judge_error`, as with a
 * single judge, and the other members are stopped.
 */
import type { Aggregate } from '../experiment/schema.js';
import { linkSignals } from '../providers/linked-signal.js';
import type { ReviewCallOptions } from '../protocol/review-call.js';
import type { Judge, JudgedOutput, JudgeResult, JudgeSession } from './judge.js';
import { summariseScores } from './judge-scores.js';
import { aggregateScores } from './panel-scores.js';

export interface PanelMember {
  judge: Judge;
  /** `sim/sim-1`, `program: node my-judge.mjs`: how the record and messages name it. */
  label: string;
}

type JudgeSuccess = Extract<JudgeResult, { ok: true }>;

export function createPanelJudge(members: readonly PanelMember[], aggregate: Aggregate): Judge {
  return {
    open(call: ReviewCallOptions): JudgeSession {
      // Stops the other members once one has failed: their scores could not be used.
      const stop = new AbortController();
      const linked = linkSignals(call.signal, stop.signal);
      const sessions = members.map((m) => m.judge.open({ ...call, signal: linked.signal }));
      return {
        async judge(request) {
          let failure: Extract<JudgeResult, { ok: false }> | undefined;
          const results = await Promise.all(
            sessions.map(async (session, i) => {
              const result = await session.judge(request);
              if (!result.ok && failure === undefined) {
                const label = members[i]?.label ?? String(i + 1);
                failure = { ...result, message: `panel member ${i + 1} (${label}): ${result.message}` };
                stop.abort();
              }
              return result;
            }),
          );
          if (failure !== undefined) return failure;
          return combineMembers(results as JudgeSuccess[], members, aggregate, request.rubric.criteria);
        },
        async close() {
          await Promise.all(sessions.map((s) => s.close()));
          linked.dispose();
        },
      };
    },
  };
}

function combineMembers(
  results: readonly JudgeSuccess[],
  members: readonly PanelMember[],
  aggregate: Aggregate,
  criteria: readonly { key: string }[],
): JudgeSuccess {
  const keys = criteria.map((c) => c.key);
  const first = results[0] as JudgeSuccess;
  const scoresOf = results.map(
    (r) => new Map(r.perOutput.map((o) => [`${o.caseId}#${o.sample}`, o] as const)),
  );
  const perOutput = first.perOutput.map((output): JudgedOutput => {
    const all = scoresOf.map((scores) => scores.get(`${output.caseId}#${output.sample}`) as JudgedOutput);
    return {
      caseId: output.caseId,
      sample: output.sample,
      file: output.file,
      criteria: Object.fromEntries(
        keys.map((key) => [
          key,
          aggregateScores(
            all.map((o) => o.criteria[key] ?? 0),
            aggregate,
          ),
        ]),
      ),
      reasoning: all.map((o, i) => `[judge ${i + 1}] ${o.reasoning}`).join('\n'),
    };
  });
  return {
    ok: true,
    perOutput,
    ...summariseScores(perOutput, keys),
    raw: { panel: results.map((r) => r.raw) },
    map: first.map,
    attempts: results.reduce((sum, r) => sum + r.attempts, 0),
    panel: {
      aggregate,
      members: results.map((r, i) => ({
        label: members[i]?.label ?? String(i + 1),
        scores: r.perOutput.map((o) => ({ caseId: o.caseId, sample: o.sample, criteria: o.criteria })),
      })),
    },
  };
}
