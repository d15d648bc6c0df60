import { describe, expect, it } from 'vitest';
import { pickResumable } from '../../../src/run/newest-resumable.js';
import type { RunSummary } from '../../../src/run/run-summary.js';

const run = (id: string, kind: RunSummary['kind'], status: RunSummary['status']) =>
  ({ id, dir: `/runs/${id}`, kind, status }) as RunSummary;

describe('pickResumable', () => {
  it('takes the newest optimisation run that stopped or crashed, passing finished, running and eval runs', () => {
    const runs = [
      run('e', 'eval', 'crashed'),
      run('d', 'run', 'running'),
      run('c', 'run', 'finished'),
      run('b', 'run', 'crashed'),
      run('a', 'run', 'stopped'),
    ];
    expect(pickResumable(runs)?.id).toBe('b');
    expect(pickResumable(runs.slice(0, 3))).toBeUndefined();
  });
});
