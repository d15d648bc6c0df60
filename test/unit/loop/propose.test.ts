import { afterEach, describe, expect, it } from 'vitest';
import { buildMutatorFeedback } from '../../../src/loop/build-feedback.js';
import { proposeCandidates } from '../../../src/loop/propose.js';
import { createModelPool, type ModelPool } from '../../../src/providers/model-pool.js';
import { createScriptedProviders } from '../../helpers/scripted-provider.js';
import { feedbackInput, INCUMBENT_PROMPT } from './feedback-fixtures.js';

let pool: ModelPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('proposeCandidates', () => {
  it('numbers candidates from firstCandidate, each number the call’s sample index', async () => {
    const scripted = createScriptedProviders({
      mut: ({ request }) =>
        JSON.stringify({
          hypothesis: `Variant ${request.sampleIndex}.`,
          prompt: `${INCUMBENT_PROMPT}\nVariant ${request.sampleIndex}.`,
        }),
    });
    pool = createModelPool({
      models: { mutator: { provider: 'anthropic', model: 'mut' } },
      concurrency: 2,
      env: {},
      createProvider: scripted.factory,
    });
    const propose = (firstCandidate?: number) =>
      proposeCandidates({
        feedback: buildMutatorFeedback(feedbackInput()),
        incumbent: INCUMBENT_PROMPT,
        triedHashes: new Set(),
        count: 2,
        maxGrowth: 1.5,
        client: (pool as ModelPool).client('mutator'),
        ...(firstCandidate === undefined ? {} : { firstCandidate }),
      });
    const from0 = await propose();
    expect(from0.map((a) => a.ok && a.proposal.candidate)).toEqual([0, 1]);
    const from3 = await propose(3);
    expect(from3.map((a) => a.ok && [a.proposal.candidate, a.proposal.hypothesis])).toEqual([
      [3, 'Variant 3.'],
      [4, 'Variant 4.'],
    ]);
    expect(scripted.calls.map((c) => c.request.sampleIndex).sort()).toEqual([0, 1, 3, 4]);
  });
});
