import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/run/events.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { createRunFold } from '../../../src/run/run-fold.js';
import { JournalBuilder } from '../../fixtures/runs/journal-builder.js';

const SHA1 = '1111111111111111111111111111111111111111';
const SHA2 = '2222222222222222222222222222222222222222';

/** Keeps, discards, a crash mid-keep with its commit journaled, a resume, an abandoned attempt. */
function eventfulRun(): RunEvent[] {
  const b = new JournalBuilder()
    .start()
    .baseline([0.6, 0.62, 0.64])
    .iteration(1, { status: 'keep', train: 0.7, commit: SHA1 })
    .iteration(2, { status: 'discard', train: 0.69 })
    .begin(3, 'committing');
  b.push({ type: 'commit', iteration: 3, sha: SHA2 });
  b.resume()
    .iteration(3, { status: 'keep', train: 0.75 })
    .begin(4, 'judging')
    .iteration(5, { status: 'error', errorKind: 'provider_error' })
    .stop('iterations');
  return b.events;
}

describe('createRunFold', () => {
  it('gives, after every event, exactly the state reduceRun gives for that prefix', () => {
    const events = eventfulRun();
    const fold = createRunFold();
    events.forEach((event, i) => {
      fold.apply(event);
      expect(fold.state()).toEqual(reduceRun(events.slice(0, i + 1)));
    });
  });

  it('never changes a snapshot it handed out when later events arrive', () => {
    const events = eventfulRun();
    const fold = createRunFold();
    const snapshots = events.map((event) => {
      fold.apply(event);
      const state = fold.state();
      return { state, frozen: structuredClone(state) };
    });
    for (const { state, frozen } of snapshots) expect(state).toEqual(frozen);
  });

  it('hands out the same snapshot until the next event', () => {
    const fold = createRunFold();
    for (const event of eventfulRun().slice(0, 5)) fold.apply(event);
    expect(fold.state()).toBe(fold.state());
  });
});
