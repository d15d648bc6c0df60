import { describe, expect, it } from 'vitest';
import { isAutoresearchError } from '../../../src/errors.js';
import { describeFrom, parseFromRef, RunFrom, startSeeds } from '../../../src/run/run-from.js';

function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isAutoresearchError(error) && error.code === 'E_USAGE') return error.message;
    throw error;
  }
  throw new Error('expected a usage error');
}

describe('parseFromRef', () => {
  it('reads a run id as its best, and /best the same', () => {
    expect(parseFromRef('20261129-2230-cold-email-k3f9')).toEqual({
      runId: '20261129-2230-cold-email-k3f9',
      take: 'best',
    });
    expect(parseFromRef(' 2026112 /best ')).toEqual({ runId: '2026112', take: 'best' });
  });

  it('reads /p<n> as a pool member, spelled as show lists them', () => {
    expect(parseFromRef('k3f9/p3')).toEqual({ runId: 'k3f9', take: 'member', member: 'p3' });
    expect(parseFromRef('k3f9/P0')).toEqual({ runId: 'k3f9', take: 'member', member: 'p0' });
  });

  it('reads /pool as the whole pool', () => {
    expect(parseFromRef('k3f9/pool')).toEqual({ runId: 'k3f9', take: 'pool' });
  });

  it('refuses what names no run or no member', () => {
    expect(usageError(() => parseFromRef('/p1'))).toBe('--from "/p1" names no run');
    expect(usageError(() => parseFromRef('k3f9/p01'))).toContain('"p01" does not name a pool member');
    expect(usageError(() => parseFromRef('k3f9/iteration3'))).toContain('does not name a pool member');
  });
});

describe('describeFrom', () => {
  it('names the best or the member, with the iteration it came from', () => {
    expect(describeFrom({ runId: 'r1', take: 'best', member: null, iteration: 4 })).toBe(
      'the best of run r1 (iteration 4)',
    );
    expect(describeFrom({ runId: 'r1', take: 'member', member: 'p2', iteration: 3 })).toBe(
      'pool member p2 of run r1 (iteration 3)',
    );
  });

  it('names a whole pool with how many members came beside its best', () => {
    const pool = { runId: 'r1', take: 'pool' as const, member: 'p3', iteration: 4 };
    expect(describeFrom({ ...pool, seeds: [] })).toBe(
      'the pool of run r1 (its best, from iteration 4, and no other member)',
    );
    expect(describeFrom({ ...pool, seeds: [{}] })).toBe(
      'the pool of run r1 (its best, from iteration 4, and 1 more member)',
    );
    expect(describeFrom({ ...pool, seeds: [{}, {}] })).toBe(
      'the pool of run r1 (its best, from iteration 4, and 2 more members)',
    );
  });
});

describe('startSeeds', () => {
  it('gives each seed its text and the member it was, in order', () => {
    const seed = { iteration: 1, promptSha256: 'b'.repeat(64), train: 0.4, commit: null, ref: null };
    expect(
      startSeeds({
        runId: 'r1',
        seeds: [
          { ...seed, member: 'p1', text: 'One.' },
          { ...seed, member: 'p4', text: 'Four.' },
        ],
      }),
    ).toEqual([
      { text: 'One.', origin: 'p1 of run r1' },
      { text: 'Four.', origin: 'p4 of run r1' },
    ]);
    expect(startSeeds({ runId: 'r1' })).toEqual([]);
  });
});

describe('RunFrom', () => {
  it('holds what resume needs and nothing it does not know', () => {
    const from = {
      runId: 'r1',
      experiment: 'cold-email',
      take: 'best',
      member: null,
      iteration: 2,
      promptSha256: 'a'.repeat(64),
      train: 0.5,
      commit: null,
      ref: null,
      text: 'Write.',
    };
    expect(RunFrom.parse(from)).toEqual(from);
    expect(RunFrom.safeParse({ ...from, take: 'everything' }).success).toBe(false);
    const seed = {
      member: 'p2',
      iteration: 1,
      promptSha256: 'b'.repeat(64),
      train: 0.4,
      commit: null,
      ref: null,
      text: 'Be brief.',
    };
    const pool = { ...from, take: 'pool', member: 'p1', seeds: [seed] };
    expect(RunFrom.parse(pool)).toEqual(pool);
    expect(RunFrom.safeParse({ ...pool, seeds: [{ ...seed, score: 1 }] }).success).toBe(false);
    expect(RunFrom.safeParse({ ...from, score: 1 }).success).toBe(false);
  });
});
