/**
 * Judge panels (docs/design/judge-reliability.md): the aggregate per output and criterion, the
 * members' scores kept for the record, their agreement, and a failing member failing the panel. The
 * members here are Judge parts that score from a table, as a sandboxed judge's result would arrive.
 */
import { describe, expect, it } from 'vitest';
import type { Judge, JudgeResult, JudgeRequest } from '../../../src/judge/judge.js';
import { createPanelJudge } from '../../../src/judge/panel-judge.js';
import { aggregateScores, combinePanels, panelRecord } from '../../../src/judge/panel-scores.js';
import type { Rubric } from '../../../src/experiment/types.js';

const rubric: Rubric = {
  path: 'rubric.md',
  text: '## Criteria\n### Clarity\n### Tone',
  criteria: [
    { key: 'clarity', title: 'Clarity', weight: 1 },
    { key: 'tone', title: 'Tone', weight: 1 },
  ],
};
const request: JudgeRequest = {
  outputs: [
    { caseId: 'a', sample: 0, text: 'first' },
    { caseId: 'b', sample: 0, text: 'second' },
  ],
  rubric,
  seed: 1,
};

/** A member that gives each case the scores in `table`; it records the signal it was opened with. */
function tableJudge(table: Record<string, Record<string, number>>, signals: AbortSignal[] = []): Judge {
  return {
    open(call) {
      signals.push(call.signal);
      return {
        async judge(req): Promise<JudgeResult> {
          const perOutput = req.outputs.map((o, i) => ({
            caseId: o.caseId,
            sample: o.sample,
            file: `output_0${i}.txt`,
            criteria: table[o.caseId] ?? {},
            reasoning: `scored ${o.caseId}`,
          }));
          return {
            ok: true,
            perOutput,
            criteriaAverages: {},
            qualityScore: 0,
            raw: {},
            map: perOutput.map((o) => ({ file: o.file, case_id: o.caseId, sample: o.sample })),
            attempts: 1,
          };
        },
        close: async () => undefined,
      };
    },
  };
}

function failingJudge(message: string): Judge {
  return {
    open: () => ({
      judge: async (): Promise<JudgeResult> => ({ ok: false, kind: 'judge_error', message, attempts: 2 }),
      close: async () => undefined,
    }),
  };
}

const signal = new AbortController().signal;

describe('aggregateScores', () => {
  it('takes the median (the mean of the middle two for an even count) or the mean', () => {
    expect(aggregateScores([1, 5, 4], 'median')).toBe(4);
    expect(aggregateScores([2, 5], 'median')).toBe(3.5);
    expect(aggregateScores([1, 2, 4, 5], 'median')).toBe(3);
    expect(aggregateScores([1, 5, 3], 'mean')).toBe(3);
    expect(aggregateScores([1, 1, 5], 'mean')).toBeCloseTo(7 / 3, 10);
  });
});

describe('createPanelJudge', () => {
  it('scores each output and criterion with the members’ median and keeps every member’s scores', async () => {
    const panel = createPanelJudge(
      [
        { judge: tableJudge({ a: { clarity: 5, tone: 2 }, b: { clarity: 1, tone: 3 } }), label: 'one' },
        { judge: tableJudge({ a: { clarity: 4, tone: 2 }, b: { clarity: 2, tone: 3 } }), label: 'two' },
        { judge: tableJudge({ a: { clarity: 1, tone: 4 }, b: { clarity: 2, tone: 5 } }), label: 'three' },
      ],
      'median',
    );
    const session = panel.open({ signal });
    const result = await session.judge(request);
    await session.close();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.perOutput.map((o) => [o.caseId, o.criteria])).toEqual([
      ['a', { clarity: 4, tone: 2 }],
      ['b', { clarity: 2, tone: 3 }],
    ]);
    // Recomputed from the aggregate: clarity (4+2)/2 = 3, tone (2+3)/2 = 2.5; (3 + 2.5) / 10.
    expect(result.criteriaAverages).toEqual({ clarity: 3, tone: 2.5 });
    expect(result.qualityScore).toBeCloseTo(0.55, 10);
    expect(result.perOutput[0]?.reasoning).toBe('[judge 1] scored a\n[judge 2] scored a\n[judge 3] scored a');
    expect(result.attempts).toBe(3);
    expect(result.panel?.aggregate).toBe('median');
    expect(result.panel?.members.map((m) => m.label)).toEqual(['one', 'two', 'three']);
    expect(result.panel?.members[2]?.scores).toEqual([
      { caseId: 'a', sample: 0, criteria: { clarity: 1, tone: 4 } },
      { caseId: 'b', sample: 0, criteria: { clarity: 2, tone: 5 } },
    ]);
  });

  it('averages with aggregate: mean', async () => {
    const panel = createPanelJudge(
      [
        { judge: tableJudge({ a: { clarity: 5, tone: 2 }, b: { clarity: 1, tone: 3 } }), label: 'one' },
        { judge: tableJudge({ a: { clarity: 2, tone: 2 }, b: { clarity: 2, tone: 4 } }), label: 'two' },
      ],
      'mean',
    );
    const result = await panel.open({ signal }).judge(request);
    expect(result.ok && result.perOutput.map((o) => o.criteria)).toEqual([
      { clarity: 3.5, tone: 2 },
      { clarity: 1.5, tone: 3.5 },
    ]);
  });

  it('fails as a whole when a member fails, naming it, and stops the other members', async () => {
    const signals: AbortSignal[] = [];
    const panel = createPanelJudge(
      [
        {
          judge: tableJudge({ a: { clarity: 5, tone: 2 }, b: { clarity: 1, tone: 3 } }, signals),
          label: 'ok',
        },
        { judge: failingJudge('judge-scores.json has no per_output list'), label: 'program: node bad.mjs' },
      ],
      'median',
    );
    const result = await panel.open({ signal }).judge(request);
    expect(result).toMatchObject({
      ok: false,
      kind: 'judge_error',
      message: 'panel member 2 (program: node bad.mjs): judge-scores.json has no per_output list',
    });
    expect(signals[0]?.aborted).toBe(true);
    expect(signal.aborted).toBe(false);
  });
});

describe('panelRecord', () => {
  it('records Krippendorff’s alpha over every output and criterion, and per criterion', () => {
    const record = panelRecord(
      {
        aggregate: 'median',
        members: [
          {
            label: 'one',
            scores: [
              { caseId: 'a', sample: 0, criteria: { clarity: 1, tone: 3 } },
              { caseId: 'b', sample: 0, criteria: { clarity: 1, tone: 3 } },
              { caseId: 'c', sample: 0, criteria: { clarity: 2, tone: 3 } },
            ],
          },
          {
            label: 'two',
            scores: [
              { caseId: 'a', sample: 0, criteria: { clarity: 1, tone: 3 } },
              { caseId: 'b', sample: 0, criteria: { clarity: 2, tone: 3 } },
              { caseId: 'c', sample: 0, criteria: { clarity: 2, tone: 3 } },
            ],
          },
        ],
      },
      ['clarity', 'tone'],
    );
    // clarity alone: units (1,1), (1,2), (2,2) → 4/9 (hand-computed in krippendorff.test.ts).
    expect(record.alphaByCriterion['clarity']).toBeCloseTo(4 / 9, 10);
    // tone: every score a 3 — nothing varies, so no alpha.
    expect(record.alphaByCriterion['tone']).toBeNull();
    // Pooled: values 1 (×3), 2 (×3), 3 (×6); o12 = o21 = 1, so alpha = 1 − 11·2·δ²₁₂ / Σ n_c n_k δ².
    // δ²₁₂ = (3 + 3 − 3)² = 9, δ²₂₃ = (3 + 6 − 4.5)² = 20.25, δ²₁₃ = (12 − 4.5)² = 56.25;
    // Σ n_c n_k δ² = 2·(3·3·9 + 3·6·20.25 + 3·6·56.25) = 2916; alpha = 1 − 198/2916.
    expect(record.alpha).toBeCloseTo(1 - 198 / 2916, 10);
    expect(record.members.map((m) => m.label)).toEqual(['one', 'two']);
  });

  it('combines two stages of one panel member by member', () => {
    const stage = (caseId: string, score: number) => ({
      aggregate: 'mean' as const,
      members: [
        { label: 'one', scores: [{ caseId, sample: 0, criteria: { clarity: score } }] },
        { label: 'two', scores: [{ caseId, sample: 0, criteria: { clarity: score } }] },
      ],
    });
    const combined = combinePanels(stage('a', 1), stage('b', 5));
    expect(combined.members.map((m) => m.scores.map((s) => s.caseId))).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(panelRecord(combined, ['clarity']).alpha).toBe(1);
  });
});
