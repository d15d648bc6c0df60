import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkPromptDrift,
  classifyPromptDrift,
  readWorkingPrompt,
  writePromptAtomically,
} from '../../../src/git/prompt-file.js';
import { sha256Hex } from '../../../src/sha256.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'autoresearch-prompt-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('prompt drift', () => {
  it('hashes text and bytes alike', () => {
    expect(sha256Hex('caf\u00e9')).toBe(sha256Hex(Buffer.from('caf\u00e9', 'utf8')));
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('classifies unchanged, changed and missing prompts', () => {
    const start = sha256Hex('v1\n');
    expect(classifyPromptDrift(Buffer.from('v1\n'), start)).toEqual({ status: 'unchanged', sha256: start });
    expect(classifyPromptDrift(Buffer.from('v1\n'), start.toUpperCase()).status).toBe('unchanged');
    expect(classifyPromptDrift(Buffer.from('v2\n'), start)).toEqual({
      status: 'changed',
      sha256: sha256Hex('v2\n'),
    });
    expect(classifyPromptDrift(null, start)).toEqual({ status: 'missing' });
  });

  it('reads the file on disk', async () => {
    const file = path.join(dir, 'prompt.md');
    expect(await readWorkingPrompt(file)).toBeNull();
    expect(await checkPromptDrift(file, sha256Hex('v1\n'))).toEqual({ status: 'missing' });
    await writeFile(file, 'v1\n');
    expect(await readWorkingPrompt(file)).toBe('v1\n');
    expect((await checkPromptDrift(file, sha256Hex('v1\n'))).status).toBe('unchanged');
    await writeFile(file, 'v1 edited\n');
    expect((await checkPromptDrift(file, sha256Hex('v1\n'))).status).toBe('changed');
  });
});

describe('writePromptAtomically', () => {
  it('replaces the content, keeps the mode and leaves no temporary file', async () => {
    const file = path.join(dir, 'prompt.md');
    await writeFile(file, 'old\n', { mode: 0o640 });
    await writePromptAtomically(file, 'new \u00e9\n');
    expect(await readFile(file, 'utf8')).toBe('new \u00e9\n');
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(['prompt.md']);
  });
});
