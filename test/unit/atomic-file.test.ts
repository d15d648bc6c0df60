import { mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/atomic-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'autoresearch-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates a missing folder and leaves no temporary file, durable or not', async () => {
    const file = path.join(dir, 'a', 'b', 'record.json');
    await writeFileAtomic(file, '{"v":1}');
    await writeFileAtomic(file, '{"v":2}', { durable: false });
    expect(await readFile(file, 'utf8')).toBe('{"v":2}');
    expect(await readdir(path.dirname(file))).toEqual(['record.json']);
  });

  it("replaces the file a user's symlink names, keeping the link and the file's mode", async () => {
    const real = path.join(dir, 'real.md');
    const link = path.join(dir, 'prompt.md');
    await writeFile(real, 'old\n', { mode: 0o600 });
    await symlink('real.md', link);
    await writeFileAtomic(link, 'new\n', { userFile: true });
    expect(await readlink(link)).toBe('real.md');
    expect(await readFile(real, 'utf8')).toBe('new\n');
    expect((await stat(real)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(['prompt.md', 'real.md']);
  });
});
