/**
 * Output records keep the generator's tool calls (docs/design/prompt-shapes.md), and records
 * written before them (no `toolCalls`) still read; the mutator's feedback shows an output as its
 * file does.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CandidateResult } from '../../../src/evaluate/candidate-result.js';
import { trainCaseResults } from '../../../src/loop/case-results.js';
import { type Evaluation, OutputRecord } from '../../../src/scoring/types.js';
import { scoreSplit } from '../../../src/scoring/score-split.js';

const V1_EVALUATION = resolve(
  import.meta.dirname,
  '../../fixtures/runs/record-v1/runs/20261130-0900-haiku-v001/iterations/0000/candidates/0/evaluation.json',
);

describe('OutputRecord', () => {
  it('reads an evaluation.json written before tool calls', () => {
    const parsed = CandidateResult.safeParse(JSON.parse(readFileSync(V1_EVALUATION, 'utf8')));
    expect(parsed.success).toBe(true);
    expect(parsed.data?.evaluation.outputs.length).toBeGreaterThan(0);
    for (const output of parsed.data?.evaluation.outputs ?? []) expect(output.toolCalls).toBeUndefined();
  });

  it('keeps the calls, and refuses calls without a name or with arguments that are not a mapping', () => {
    const record = {
      caseId: 'a',
      sample: 0,
      ok: true,
      text: '',
      toolCalls: [{ id: 'c1', name: 'f', arguments: { x: [1] } }],
    };
    expect(OutputRecord.parse(record)).toEqual(record);
    expect(OutputRecord.safeParse({ ...record, toolCalls: [{ id: 'c1', arguments: {} }] }).success).toBe(
      false,
    );
    expect(
      OutputRecord.safeParse({ ...record, toolCalls: [{ id: 'c1', name: 'f', arguments: '{}' }] }).success,
    ).toBe(false);
  });

  it('reaches the mutator as the output file shows it', () => {
    const evaluation: Evaluation = {
      samples: 1,
      cases: [{ id: 'a', split: 'train', checks: [], expectations: [] }],
      outputs: [
        {
          caseId: 'a',
          sample: 0,
          ok: true,
          text: 'On it.',
          toolCalls: [{ id: 'c1', name: 'f', arguments: { b: 1, a: 2 } }],
        },
      ],
      checks: [],
      gradings: [],
      weights: { checks: 1, judge: 0, expectations: 0 },
    };
    const [result] = trainCaseResults(evaluation, scoreSplit(evaluation, 'train'), new Map());
    expect(result?.samples[0]?.output).toBe(
      'On it.\n\n{"tool_calls":[{"name":"f","arguments":{"a":2,"b":1}}]}',
    );
  });
});
