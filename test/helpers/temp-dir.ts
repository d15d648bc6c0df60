/**
 * A fresh temporary folder for each test of a file, removed after it:
 *
 *   const tmp = useTempDir('file-cache-');
 *   it('…', async () => { const dir = tmp(); … });
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (dir === undefined) throw new Error('useTempDir: the folder exists only inside a test');
    return dir;
  };
}
