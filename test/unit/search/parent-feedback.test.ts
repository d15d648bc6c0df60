import { describe, expect, it } from 'vitest';
import { HoldoutLeakError } from '../../../src/loop/build-feedback.js';
import { buildMutatorRequest, MUTATOR_POOL_SYSTEM_PROMPT } from '../../../src/loop/mutator-prompt.js';
import { cutMarker } from '../../../src/loop/text.js';
import { extractFeedbackBlock, MutatorFeedback } from '../../../src/protocol/mutation.js';
import type { CandidateDecisionRecord, PoolMemberRecord, PoolState } from '../../../src/run/run-state.js';
import {
  buildParentFeedback,
  lineageAttempts,
  type ParentFeedbackInput,
  TRACE_CHARS,
  TRACED_CASES,
} from '../../../src/search/parent-feedback.js';
import { INCUMBENT_PROMPT, sample, trainCase } from '../loop/feedback-fixtures.js';

const HOLDOUT_MARKER = 'QX7-HOLDOUT-IN-POOL';

function member(id: string, parents: string[]): PoolMemberRecord {
  return {
    id,
    iteration: Number(id.slice(1)),
    candidate: 0,
    kind: parents.length === 0 ? 'seed' : parents.length === 2 ? 'merge' : 'mutation',
    parents,
    promptSha256: 'a'.repeat(64),
    train: 0.5,
    holdout: 0.987654,
    eligible: true,
    cases: { a: 0.5 },
  };
}

function decision(
  iteration: number,
  candidate: number,
  parents: string[],
  status: CandidateDecisionRecord['status'],
  fields: Partial<CandidateDecisionRecord> = {},
): CandidateDecisionRecord {
  return {
    iteration,
    candidate,
    kind: parents.length === 2 ? 'merge' : 'mutation',
    parents,
    status,
    member: null,
    train: 0.6,
    holdout: 0.987654,
    delta: 0.01,
    paired: null,
    pairedOther: null,
    screen: null,
    best: null,
    conflicts: null,
    errorKind: null,
    message: `${HOLDOUT_MARKER} in a message`,
    hypothesis: `hypothesis ${iteration}.${candidate}`,
    promptSha256: null,
    ...fields,
  };
}

// p0 ─ p1 ─ p3 ─┐
//   └─ p2 ──────┴ p4 (merge of p3 and p2)
const POOL: PoolState = {
  members: [
    member('p0', []),
    member('p1', ['p0']),
    member('p2', ['p0']),
    member('p3', ['p1']),
    member('p4', ['p3', 'p2']),
  ],
  best: 'p3',
  choices: [],
  decisions: [
    decision(1, 0, ['p0'], 'pooled', { member: 'p1', delta: 0.05 }),
    decision(1, 1, ['p0'], 'pooled', { member: 'p2', delta: 0.04 }),
    decision(2, 0, ['p1'], 'pooled', { member: 'p3', delta: 0.03 }),
    decision(2, 1, ['p2'], 'discard', { delta: -0.02 }),
    decision(3, 0, ['p3'], 'screened_out', {
      delta: null,
      train: null,
      screen: { cases: ['a', 'b'], mean: -0.2, passed: false, callsSaved: 6 },
    }),
    decision(4, 0, ['p3', 'p2'], 'pooled', { member: 'p4', delta: 0.02, conflicts: 1 }),
    decision(5, 0, ['p2'], 'gate_fail', { delta: null }),
  ],
  merges: { attempted: 1, pooled: 1, best: 0 },
};

function input(overrides: Partial<ParentFeedbackInput> = {}): ParentFeedbackInput {
  return {
    parent: {
      id: 'p3',
      prompt: INCUMBENT_PROMPT,
      score: { total: 0.61, checks: 0.7, judge: 0.55 },
      criteria: { clarity: 3.2, specificity: 2.8 },
    },
    trainCases: [
      trainCase('a', 0.2),
      trainCase('b', 0.9),
      trainCase('c', 0.4),
      trainCase('d', 1),
      trainCase('e', 0.3),
      trainCase('f', 0.5),
      trainCase('g', 0.1),
    ],
    minibatch: ['a', 'b', 'c', 'd', 'e', 'f'],
    pool: POOL,
    mode: 'focused',
    guidance: '',
    maxGrowth: 1.5,
    ...overrides,
  };
}

describe('buildParentFeedback', () => {
  it('shows every failing case of the minibatch, worst first, and no case outside it', () => {
    const feedback = buildParentFeedback(input());
    expect(MutatorFeedback.parse(feedback)).toEqual(feedback);
    // g fails worst but is not in this iteration's minibatch; d is perfect.
    expect(feedback.failing_cases.map((c) => c.case_id)).toEqual(['a', 'e', 'c', 'f', 'b']);
    expect(feedback.parent).toEqual({ member: 'p3', ancestors: ['p1', 'p0'] });
    expect(feedback.mode).toBe('focused');
    expect(feedback.strategy).toBe('focused');
    expect(feedback.trace_chars).toBe(TRACE_CHARS);
    // Without a minibatch: every train case, the worst TRACED_CASES of them.
    const all = buildParentFeedback(input({ minibatch: null }));
    expect(all.failing_cases.map((c) => c.case_id)).toEqual(['g', 'a', 'e', 'c', 'f', 'b']);
    const many = Array.from({ length: TRACED_CASES + 3 }, (_, i) => trainCase(`m${i}`, i / 100));
    const capped = buildParentFeedback(input({ trainCases: many, minibatch: null }));
    expect(capped.failing_cases.map((c) => c.case_id)).toEqual(many.slice(0, TRACED_CASES).map((c) => c.id));
  });

  it('gives whole outputs, reasons, judge reasoning and grader evidence, cut only past the stated size', () => {
    const longReason = `${'the email never names a pain point; '.repeat(20)}end.`;
    const output = `Subject: hi\n${'A sentence of the email. '.repeat(100)}`;
    const c = trainCase('a', 0.2, {
      samples: [
        sample({
          output,
          checks: [{ name: 'short', type: 'word-count', pass: false, reason: longReason }],
          judge: { criteria: { clarity: 2, specificity: 1 }, reasoning: longReason },
          expectations: [{ text: 'Names one concrete pain', passed: false, evidence: longReason }],
        }),
      ],
    });
    const [whole] = buildParentFeedback(input({ trainCases: [c], minibatch: ['a'] })).failing_cases;
    expect(output.length).toBeGreaterThan(600);
    expect(whole?.output_excerpt).toBe(output);
    expect(whole?.output_chars).toBe(output.length);
    expect(whole?.failed_checks[0]?.reason).toBe(longReason);
    expect(whole?.judge).toEqual({ criteria: { clarity: 2, specificity: 1 }, reasoning: longReason });
    expect(whole?.failed_expectations).toEqual([{ text: 'Names one concrete pain', evidence: longReason }]);

    const [cut] = buildParentFeedback(
      input({ trainCases: [c], minibatch: ['a'], traceChars: 100 }),
    ).failing_cases;
    expect(cut?.output_excerpt).toBe(`${output.slice(0, 100)}\n${cutMarker(output.length - 100)}`);
    expect(cut?.output_excerpt).toContain(`[… cut here: ${output.length - 100} more characters not shown]`);
    expect(cut?.output_chars).toBe(output.length);
    expect(cut?.judge?.reasoning).toBe(`${longReason.slice(0, 100)}\n${cutMarker(longReason.length - 100)}`);
  });

  it('never takes a holdout or test case, nor a minibatch case that is not a train case', () => {
    const holdout = trainCase('h1', 0.1, { split: 'holdout' });
    const test = trainCase('t1', 0.1, { split: 'test' });
    expect(() => buildParentFeedback(input({ trainCases: [trainCase('a', 0.2), holdout] }))).toThrow(
      HoldoutLeakError,
    );
    expect(() => buildParentFeedback(input({ trainCases: [trainCase('a', 0.2), test] }))).toThrow(
      /case "t1" is a test case and was passed to the mutator feedback/,
    );
    expect(() => buildParentFeedback(input({ minibatch: ['a', 'h1'] }))).toThrow(
      /minibatch case "h1" is not among the train cases/,
    );
  });

  it('carries no holdout figure of the pool into the request', () => {
    const feedback = buildParentFeedback(input());
    const request = buildMutatorRequest(feedback);
    const text = JSON.stringify(request);
    expect(text).not.toContain(HOLDOUT_MARKER);
    expect(text).not.toContain('0.987654');
    expect(text).not.toContain('holdout');
  });

  it('lists the attempts made from the parent and its ancestors, merges included, best gain first', () => {
    const attempts = lineageAttempts(POOL, 'p3');
    expect(attempts.map((a) => `${a.iteration}.${a.candidate}`)).toEqual(['1.0', '1.1', '2.0', '3.0', '4.0']);
    expect(attempts[3]).toEqual({
      iteration: 3,
      candidate: 0,
      status: 'screened_out',
      trainScore: null,
      hypothesis: 'hypothesis 3.0',
      parents: ['p3'],
      member: null,
      delta: -0.2,
    });
    const { history } = buildParentFeedback(input());
    expect(history).toEqual([
      {
        iteration: 1,
        candidate: 0,
        status: 'pooled',
        score: 0.6,
        hypothesis: 'hypothesis 1.0',
        parents: ['p0'],
        member: 'p1',
        delta: 0.05,
      },
      {
        iteration: 1,
        candidate: 1,
        status: 'pooled',
        score: 0.6,
        hypothesis: 'hypothesis 1.1',
        parents: ['p0'],
        member: 'p2',
        delta: 0.04,
      },
      {
        iteration: 2,
        candidate: 0,
        status: 'pooled',
        score: 0.6,
        hypothesis: 'hypothesis 2.0',
        parents: ['p1'],
        member: 'p3',
        delta: 0.03,
      },
      {
        iteration: 4,
        candidate: 0,
        status: 'pooled',
        score: 0.6,
        hypothesis: 'hypothesis 4.0',
        parents: ['p3', 'p2'],
        member: 'p4',
        delta: 0.02,
      },
      {
        iteration: 3,
        candidate: 0,
        status: 'screened_out',
        score: null,
        hypothesis: 'hypothesis 3.0',
        parents: ['p3'],
        member: null,
        delta: -0.2,
      },
    ]);
    // p2's line: its own discard, gate_fail and merge, and what came from p0; not p1's or p3's.
    expect(lineageAttempts(POOL, 'p2').map((a) => `${a.iteration}.${a.candidate}`)).toEqual([
      '1.0',
      '1.1',
      '2.1',
      '4.0',
      '5.0',
    ]);
    expect(lineageAttempts(POOL, 'p0').map((a) => `${a.iteration}.${a.candidate}`)).toEqual(['1.0', '1.1']);
  });

  it('lists what other lineages tried, by hypothesis alone, newest first, so it is not proposed again', () => {
    const feedback = buildParentFeedback(input());
    // p3's lineage is p3, p1, p0: p2's own discard (2.1) and gate_fail (5.0) are elsewhere.
    expect(feedback.tried).toEqual(['hypothesis 5.0', 'hypothesis 2.1']);
    const user = buildMutatorRequest(feedback).messages[0]?.content ?? '';
    expect(user).toContain(
      '## Also tried elsewhere in this run (newest first; do not propose these again)\n- "hypothesis 5.0"\n- "hypothesis 2.1"\n',
    );
    // A pool whose every attempt is in the lineage has nothing elsewhere: no field, no section.
    const p2 = buildParentFeedback(input({ parent: { ...input().parent, id: 'p4' } }));
    expect(p2.tried).toBeUndefined();
    expect(buildMutatorRequest(p2).messages[0]?.content).not.toContain('Also tried elsewhere');
  });

  it('refuses a parent that is not a pool member', () => {
    expect(() => buildParentFeedback(input({ parent: { ...input().parent, id: 'p9' } }))).toThrow(
      /"p9" is not a member of the pool/,
    );
  });

  it('explains the pool, the traces, the lineage and the mode in the request', () => {
    const feedback = buildParentFeedback(input({ mode: 'bold' }));
    const request = buildMutatorRequest(feedback);
    expect(request.system).toBe(MUTATOR_POOL_SYSTEM_PROMPT);
    expect(request.system).toContain('joins the pool only if it scores clearly higher than its parent');
    const user = request.messages[0]?.content ?? '';
    expect(extractFeedbackBlock(user)).toEqual(feedback);
    expect(user).toContain('Mode for this round: bold (the last attempts were all rejected');
    expect(user).toContain('Pool member p3 (its ancestors, nearest first: p1, p0)');
    expect(user).toContain('## Training cases of this round’s sample losing points (worst first)');
    expect(user).toContain(`a text longer than ${TRACE_CHARS} characters is cut, and the cut is marked`);
    expect(user).toContain('Output (written by the model under test, 28 characters):');
    expect(user).toContain(
      '## Attempts already made from p3, p1, p0 (best gain over their own parent first)',
    );
    expect(user).toContain(
      '- iteration 4, candidate 0, from p3 + p2: pooled as p4, +0.020 against p3, train 0.600: "hypothesis 4.0"',
    );
    expect(user).toContain(
      '- iteration 3, candidate 0, from p3: screened_out, -0.200 against p3 on its minibatch: "hypothesis 3.0"',
    );
    expect(user).toContain('make one bolder change');
  });
});
