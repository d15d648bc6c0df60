import { describe, expect, it } from 'vitest';
import { createTriedPrompts } from '../../../src/loop/loop-state.js';
import { hashPrompt } from '../../../src/prompt-hash.js';
import { type RunEvent, type RunEventBody, stampEvent } from '../../../src/run/events.js';

const AT = new Date('2026-11-30T05:00:00Z');
const hash = (n: number) => n.toString(16).padStart(64, '0');
const event = (body: RunEventBody) => stampEvent(body, AT) as RunEvent;

function started(iteration: number) {
  return event({ type: 'iteration_started', iteration, strategy: 'focused' });
}
function proposed(iteration: number, candidate: number, sha: string) {
  return event({
    type: 'proposal',
    iteration,
    candidate,
    hypothesis: 'h',
    promptSha256: sha,
    duplicate: false,
  });
}
function finished(iteration: number, status: 'keep' | 'discard' | 'interrupted', sha: string | null) {
  return event({
    type: 'iteration_finished',
    iteration,
    status,
    candidate: sha === null ? null : 0,
    train: null,
    holdout: null,
    incumbentBefore: null,
    delta: null,
    hypothesis: null,
    promptSha256: sha,
    costUsd: 0,
    seconds: 1,
  });
}

describe('createTriedPrompts', () => {
  it('counts every proposal of a finished iteration, and the incumbent', () => {
    const tried = createTriedPrompts();
    for (const e of [
      started(1),
      proposed(1, 0, hash(1)),
      proposed(1, 1, hash(2)),
      finished(1, 'discard', hash(1)),
    ])
      tried.apply(e);
    expect(tried.with('the incumbent')).toEqual(new Set([hash(1), hash(2), hashPrompt('the incumbent')]));
  });

  it('leaves out the proposals of an iteration that is still open or was interrupted', () => {
    const tried = createTriedPrompts();
    for (const e of [started(1), proposed(1, 0, hash(1)), finished(1, 'interrupted', null)]) tried.apply(e);
    for (const e of [started(2), proposed(2, 0, hash(2))]) tried.apply(e);
    expect(tried.with('p')).toEqual(new Set([hashPrompt('p')]));
    // The resumed iteration 1 proposes the same prompt again: not a duplicate of itself.
    for (const e of [started(1), proposed(1, 0, hash(1)), finished(1, 'keep', hash(1))]) tried.apply(e);
    expect(tried.with('p')).toEqual(new Set([hash(1), hashPrompt('p')]));
  });

  it('hands out a copy: adding to it changes nothing kept', () => {
    const tried = createTriedPrompts();
    tried.with('a').add(hash(9));
    expect(tried.with('a').has(hash(9))).toBe(false);
  });
});
