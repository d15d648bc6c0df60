/**
 * The simulated mutator resolving a merge's conflicts (docs/design/pareto-search.md):
 * deterministic, both sides' instructions kept once each, the ancestor's lines a side replaced
 * dropped, our text when both would not fit the part's limit; recognised from the merge request
 * alone.
 */
import { describe, expect, test } from 'vitest';
import {
  MERGE_REQUEST_FORMAT,
  MergeReply,
  type MergeRequest,
} from '../../../../../src/protocol/merge-request.js';
import { resolveMergeConflicts } from '../../../../../src/providers/sim/roles/merger.js';
import { simulateCompletion } from '../../../../../src/providers/sim/simulate.js';
import { buildMergeRequest } from '../../../../../src/search/merge-prompt.js';

function request(conflicts: MergeRequest['conflicts'], maxChars = 1000): MergeRequest {
  return {
    format: MERGE_REQUEST_FORMAT,
    ancestor: 'p1',
    ours: { member: 'p3', hypothesis: 'A word limit.' },
    theirs: { member: 'p5', hypothesis: 'A closing question.' },
    parts: [
      {
        name: 'prompt',
        merged: ['Write to {{name}}.', ...conflicts.map((c) => `[[conflict ${c.id}]]`)].join('\n'),
        placeholders: ['name'],
        keep_blocks: [],
        max_chars: maxChars,
      },
    ],
    conflicts,
  };
}

describe('resolveMergeConflicts', () => {
  test('keeps both sides’ new lines once, drops the ancestor lines a side replaced', () => {
    const reply = resolveMergeConflicts(
      request([
        {
          id: 1,
          part: 'prompt',
          ancestor: 'Keep it short.\nBe friendly.',
          ours: 'Keep it under 120 words.\nBe friendly.',
          theirs: 'Keep it short.\nBe friendly and end with a question.',
        },
        { id: 2, part: 'prompt', ancestor: '', ours: 'Avoid jargon.', theirs: 'Avoid  jargon.\nAdd a P.S.' },
      ]),
    );
    expect(reply.resolutions).toEqual({
      '1': 'Keep it under 120 words.\nBe friendly and end with a question.',
      '2': 'Avoid jargon.\nAdd a P.S.',
    });
    expect(reply.hypothesis).toMatch(/both p3 and p5/);
    expect(MergeReply.parse(reply)).toEqual(reply);
  });

  test('takes our text when keeping both would pass the part’s limit', () => {
    const conflicts = [
      { id: 1, part: 'prompt', ancestor: 'A.', ours: 'A longer line.', theirs: 'Another longer line.' },
    ];
    expect(resolveMergeConflicts(request(conflicts, 60)).resolutions).toEqual({
      '1': 'A longer line.\nAnother longer line.',
    });
    expect(resolveMergeConflicts(request(conflicts, 40)).resolutions).toEqual({ '1': 'A longer line.' });
  });

  test('answers the merge request as the mutator, the same way every time', () => {
    const conflicts = [{ id: 1, part: 'prompt', ancestor: 'A.', ours: 'B.', theirs: 'C.' }];
    const { system, messages } = buildMergeRequest(request(conflicts));
    const first = simulateCompletion({ system, messages });
    expect(first.role).toBe('mutator');
    expect(JSON.parse(first.text)).toEqual(resolveMergeConflicts(request(conflicts)));
    expect(simulateCompletion({ system, messages }).text).toBe(first.text);
  });
});
