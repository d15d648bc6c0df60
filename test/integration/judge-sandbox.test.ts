/** The sandbox folder itself: exactly the files given, a separate empty HOME, removed afterwards. */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/sandbox.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sandbox-root-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createSandbox', () => {
  it('writes exactly the files given under a neutral name, with an empty HOME beside it', async () => {
    const sandbox = await createSandbox(
      [
        { path: 'outputs/output_00.txt', text: 'a' },
        { path: 'rubric.md', text: '# R' },
      ],
      { tmpRoot: root },
    );
    expect(basename(sandbox.dir)).toMatch(/^ws-\w+$/);
    expect(basename(sandbox.home)).toMatch(/^h-\w+$/);
    expect((await readdir(sandbox.dir, { recursive: true })).sort()).toEqual([
      'outputs',
      'outputs/output_00.txt',
      'rubric.md',
    ]);
    expect(await readFile(join(sandbox.dir, 'rubric.md'), 'utf8')).toBe('# R');
    expect(await readdir(sandbox.home)).toEqual([]);
    await sandbox.remove();
    expect(existsSync(sandbox.dir) || existsSync(sandbox.home)).toBe(false);
  });

  it('refuses paths that leave the sandbox and leaves nothing behind', async () => {
    await expect(createSandbox([{ path: '../escape.txt', text: 'x' }], { tmpRoot: root })).rejects.toThrow(
      /stay inside/,
    );
    await expect(createSandbox([{ path: '/etc/x', text: 'x' }], { tmpRoot: root })).rejects.toThrow(
      /stay inside/,
    );
    expect(await readdir(root)).toEqual([]);
  });
});
