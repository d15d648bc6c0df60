import { describe, expect, it } from 'vitest';
import { buildMutatorRequest } from '../../../../src/loop/mutator-prompt.js';
import { withoutTried } from '../../../../src/providers/sim/seed-request.js';
import { feedbackInput } from '../../loop/feedback-fixtures.js';
import { buildMutatorFeedback } from '../../../../src/loop/build-feedback.js';

describe('the seed of a mutator request', () => {
  it('leaves out the tried list and its section, so the request reads as with nothing tried', () => {
    const history = [
      { iteration: 1, status: 'discard', trainScore: 0.4, hypothesis: 'Adding a rule will help.' },
    ];
    const bare = buildMutatorRequest(buildMutatorFeedback(feedbackInput({ history })));
    const told = buildMutatorRequest(
      buildMutatorFeedback(
        feedbackInput({ history, tried: ['Banning "jargon" will help.', 'Adding a rule will help.'] }),
      ),
    );
    const toldText = told.messages[0]?.content ?? '';
    expect(toldText).toContain('## Also tried elsewhere in this run');
    expect(withoutTried(toldText)).toBe(bare.messages[0]?.content);
    // A request with nothing tried, or no feedback at all, is its own seed.
    expect(withoutTried(bare.messages[0]?.content ?? '')).toBe(bare.messages[0]?.content);
    expect(withoutTried('Write a cold email.')).toBe('Write a cold email.');
  });
});
