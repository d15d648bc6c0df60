import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProcessProbe } from '../../src/run/process-identity.js';
import { sweepStaleTempRoots, tempRoot } from '../../src/temp-root.js';
import { useTempDir } from '../helpers/temp-dir.js';

const HOUR = 60 * 60 * 1000;

/** pid 100 runs (started at "t1"); every other pid is gone. */
const probe: ProcessProbe = {
  host: 'here',
  inspect: async (pid) =>
    pid === 100 ? { alive: true, startTime: 't1' } : { alive: false, startTime: null },
};

async function folder(base: string, name: string, owner?: unknown): Promise<string> {
  const dir = join(base, name);
  await mkdir(join(dir, 'ws-abc123'), { recursive: true });
  await writeFile(join(dir, 'ws-abc123', 'output_00.txt'), 'an output');
  if (owner !== undefined) await writeFile(join(dir, 'owner.json'), JSON.stringify(owner));
  return dir;
}

describe('temporary folders', () => {
  const tmp = useTempDir('temp-root-');

  it('sweeps the folders whose owner is gone, and only those', async () => {
    const base = tmp();
    await folder(base, 'autoresearch-tmp-dead01', { pid: 200, host: 'here', startTime: 't9' });
    await folder(base, 'autoresearch-tmp-reused', { pid: 100, host: 'here', startTime: 't0' });
    await folder(base, 'autoresearch-tmp-alive1', { pid: 100, host: 'here', startTime: 't1' });
    await folder(base, 'autoresearch-tmp-nostat', { pid: 100, host: 'here', startTime: null });
    await folder(base, 'autoresearch-tmp-remote', { pid: 200, host: 'elsewhere', startTime: null });
    await folder(base, 'autoresearch-tmp-noownr');
    await folder(base, 'autoresearch-tmp-garble', 'not an owner');
    await folder(base, 'someone-elses-dead01', { pid: 200, host: 'here', startTime: null });

    const removed = await sweepStaleTempRoots({ base, probe });
    expect(removed.map((dir) => basename(dir)).sort()).toEqual([
      'autoresearch-tmp-dead01',
      'autoresearch-tmp-reused',
    ]);
    expect((await readdir(base)).sort()).toEqual([
      'autoresearch-tmp-alive1',
      'autoresearch-tmp-garble',
      'autoresearch-tmp-noownr',
      'autoresearch-tmp-nostat',
      'autoresearch-tmp-remote',
      'someone-elses-dead01',
    ]);

    // A folder nobody claims is left an hour (its maker may be about to write its owner).
    const later = await sweepStaleTempRoots({ base, probe, now: () => Date.now() + 2 * HOUR });
    expect(later.map((dir) => basename(dir)).sort()).toEqual([
      'autoresearch-tmp-garble',
      'autoresearch-tmp-noownr',
    ]);
  });

  it('an unreadable base is no error', async () => {
    expect(await sweepStaleTempRoots({ base: join(tmp(), 'missing'), probe })).toEqual([]);
  });

  it('gives this process one folder of its own, owned by it', async () => {
    const root = await tempRoot();
    expect(await tempRoot()).toBe(root);
    expect(dirname(root)).toBe(tmpdir());
    expect(basename(root)).toMatch(/^autoresearch-tmp-[A-Za-z0-9]{6}$/);
    const owner = JSON.parse(readFileSync(join(root, 'owner.json'), 'utf8'));
    expect(owner.pid).toBe(process.pid);
    // Ours is alive: a sweep leaves it.
    await sweepStaleTempRoots();
    expect(existsSync(root)).toBe(true);
  });
});
