import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLatest, pickLatest, resolveRunRef } from '../../../src/run/run-ref.js';
import type { RunSummary } from '../../../src/run/run-summary.js';

const run = (id: string, kind: RunSummary['kind']) => ({ id, dir: `/runs/${id}`, kind }) as RunSummary;

describe('latest run references', () => {
  it('read `latest` as 0 and `latest~N` as N; anything else is an id or its beginning', () => {
    expect(parseLatest('latest')).toBe(0);
    expect(parseLatest(' latest~2 ')).toBe(2);
    expect(parseLatest('latest~')).toBeUndefined();
    expect(parseLatest('latest-1')).toBeUndefined();
    expect(parseLatest('20261129-2230')).toBeUndefined();
  });

  it('count optimisation runs only, newest first, passing eval and calibrate records', () => {
    const runs = [run('e', 'eval'), run('d', 'run'), run('c', 'calibrate'), run('b', 'run'), run('a', 'run')];
    expect(pickLatest(runs, 0)?.id).toBe('d');
    expect(pickLatest(runs, 1)?.id).toBe('b');
    expect(pickLatest(runs, 2)?.id).toBe('a');
    expect(pickLatest(runs, 3)).toBeUndefined();
  });

  it('say how many runs there are when `latest~N` reaches past the oldest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ar-runref-'));
    try {
      await expect(resolveRunRef(dir, 'latest')).rejects.toMatchObject({
        code: 'E_NOT_FOUND',
        message: expect.stringMatching(/no runs in/),
      });
      await expect(resolveRunRef(dir, 'nope')).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
