/**
 * What resume polls (docs/design/cost-engine.md): the batches a journal submitted and never finished,
 * and only those.
 */
import { describe, expect, it } from 'vitest';
import { pendingBatches } from '../../../src/providers/batch/batch-runner.js';
import { type RunEvent, type RunEventBody, stampEvent } from '../../../src/run/events.js';

const at = new Date('2026-12-01T22:00:00Z');
const event = (body: RunEventBody) => stampEvent(body, at) as RunEvent;
const submitted = (batchId: string, iteration: number) =>
  event({
    type: 'batch_submitted',
    batchId,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    requests: 3,
    iteration,
    phase: 'generating',
  });
const finished = (batchId: string) =>
  event({ type: 'batch_finished', batchId, succeeded: 3, failed: 0, expired: 0, canceled: 0 });

describe('pendingBatches', () => {
  it('keeps the submitted batches without a finish, in journal order, as their fields', () => {
    const events = [submitted('a', 0), finished('a'), submitted('b', 1), submitted('c', 1), finished('c')];
    expect(pendingBatches(events)).toEqual([
      {
        batchId: 'b',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        requests: 3,
        iteration: 1,
        phase: 'generating',
      },
    ]);
    expect(pendingBatches([])).toEqual([]);
  });
});
