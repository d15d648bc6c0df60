/**
 * One judging of a bias probe: a session of the experiment's judge (in its usual sandbox) over
 * a set of outputs, always fresh (docs/design/judge-reliability.md: every model call a new sample,
 * never the cache, with its own sample base), reduced to what the probes compare — each output's
 * weighted score on the 1–5 scale, its criterion scores, and the place it had in the order the
 * judge saw.
 */
import type { Rubric } from '../experiment/types.js';
import type { Judge, JudgeOutput } from '../judge/judge.js';
import { normaliseCriteria } from '../scoring/judge-signal.js';
import { slotKey } from '../scoring/output-slots.js';

/**
 * Probe samples are numbered from here, far above the indexes of ordinary judgings
 * (0 … samples − 1), so replacing their cache entries never touches those.
 */
export const PROBE_SAMPLE_BASE = 1_000_000;
/** Room for a judge's `samples` within one judging. */
export const PROBE_SAMPLE_STRIDE = 1_000;

export interface Judging {
  /** By slotKey(caseId, sample): the rubric-weighted mean of the criteria, on the 1–5 scale. */
  scores: Map<string, number>;
  /** By slotKey: the criterion scores as the judge gave them. */
  criteria: Map<string, Record<string, number>>;
  /** By slotKey: the output's place in the order the judge saw them, 0 first. */
  positions: Map<string, number>;
}

export type JudgingOutcome = { ok: true; judging: Judging } | { ok: false; message: string };

export interface ProbeJudge {
  /** Judges `outputs` laid out with `seed`; each call is a new fresh judging. */
  judge(outputs: readonly JudgeOutput[], seed: number): Promise<JudgingOutcome>;
}

export function outputKey(output: Pick<JudgeOutput, 'caseId' | 'sample'>): string {
  return slotKey(output.caseId, output.sample);
}

/** A weighted score on the 1–5 scale (the judge signal's weighting, before its 0–1 normalisation). */
export function weightedScore(criteria: Record<string, number>, rubric: Rubric): number {
  return 1 + 4 * normaliseCriteria(criteria, rubric.criteria);
}

export function createProbeJudge(options: { judge: Judge; rubric: Rubric; signal: AbortSignal }): ProbeJudge {
  let judgings = 0;
  return {
    async judge(outputs, seed) {
      const sampleBase = PROBE_SAMPLE_BASE + judgings * PROBE_SAMPLE_STRIDE;
      judgings += 1;
      const session = options.judge.open({ signal: options.signal });
      try {
        const result = await session.judge({ outputs, rubric: options.rubric, seed, fresh: { sampleBase } });
        if (!result.ok) {
          // As in an evaluation: auth and credit failures and Ctrl-C stop the command.
          const error = result.providerError;
          if (error && (error.stopsRun || error.kind === 'aborted')) throw error;
          options.signal.throwIfAborted();
          return { ok: false, message: result.message };
        }
        const judging: Judging = { scores: new Map(), criteria: new Map(), positions: new Map() };
        for (const scored of result.perOutput) {
          const key = slotKey(scored.caseId, scored.sample);
          judging.criteria.set(key, scored.criteria);
          judging.scores.set(key, weightedScore(scored.criteria, options.rubric));
        }
        // Zero-padded names: their order is the order the judge saw.
        const byFile = [...result.map].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
        byFile.forEach((entry, place) => {
          judging.positions.set(slotKey(entry.case_id, entry.sample), place);
        });
        return { ok: true, judging };
      } finally {
        await session.close();
      }
    },
  };
}
