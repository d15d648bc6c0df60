/**
 * A program given a workspace (run-in-sandbox.ts SandboxStart.workspace) works in that host
 * folder: it finds the fixture files and the files given, its changes stay after the run, its
 * HOME is not there, and under `os` isolation the host around the folder stays out of sight while
 * a shell, running as the sandbox's unprivileged id, can still write the folder and its /tmp.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Isolation } from '../../src/sandbox/isolation.js';
import { systemBwrapProbe } from '../../src/sandbox/isolation.js';
import { runInSandbox } from '../../src/sandbox/run-in-sandbox.js';

// Reads a fixture and the task (the path of a host file beside the workspace: an argument
// naming a file would have it bound in), edits the fixture, adds a file, looks beside, reports.
const PROGRAM = `
const fs = require('node:fs');
const beside = fs.readFileSync('task.md', 'utf8');
const seen = {
  cwd: process.cwd(),
  home: process.env.HOME,
  fixture: fs.readFileSync('src/app.txt', 'utf8'),
  task: beside,
  beside: fs.existsSync(beside) ? fs.readFileSync(beside, 'utf8') : null,
};
fs.writeFileSync('src/app.txt', 'edited by the program');
fs.mkdirSync('made', { recursive: true });
fs.writeFileSync('made/new.txt', 'new');
fs.writeFileSync('result.json', JSON.stringify(seen));
`;

let root: string;
let script: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sbx-workspace-'));
  script = join(root, 'program.cjs');
  await writeFile(script, PROGRAM);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Seen {
  cwd: string;
  home: string;
  fixture: string;
  task: string;
  beside: string | null;
}

const levels: Isolation[] = systemBwrapProbe() === undefined ? ['process', 'os'] : ['process'];

describe('a program with a workspace', () => {
  it.each(levels)('(%s isolation) works in the folder, which keeps its changes', async (isolation) => {
    const run = await mkdtemp(join(root, `${isolation}-`));
    const workspace = join(run, 'workspace');
    const tmpRoot = join(run, 'tmp');
    await mkdir(join(workspace, 'src'), { recursive: true });
    await mkdir(tmpRoot);
    await writeFile(join(workspace, 'src', 'app.txt'), 'fixture');
    const beside = join(run, 'beside.txt');
    await writeFile(beside, 'a host file next to the workspace');
    const result = await runInSandbox({
      program: { entry: { command: [process.execPath, script] }, builtinArgs: [] },
      files: [{ path: 'task.md', text: beside }],
      workspace,
      resultFile: 'result.json',
      accept: (json) => ({ ok: true, value: json as Seen }),
      who: 'program',
      timeoutMs: 30_000,
      attempts: 1,
      env: { PATH: process.env['PATH'] ?? '' },
      tmpRoot,
      isolation,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const seen = result.value;
    expect(seen).toMatchObject({ fixture: 'fixture', task: beside });
    if (isolation === 'os') {
      expect(seen).toMatchObject({ cwd: '/sandbox', home: '/home/sandbox', beside: null });
    } else {
      expect(seen.cwd).toBe(await realpath(workspace));
      expect(seen.home.startsWith(workspace)).toBe(false);
    }
    expect(await readFile(join(workspace, 'src', 'app.txt'), 'utf8')).toBe('edited by the program');
    expect(await readFile(join(workspace, 'made', 'new.txt'), 'utf8')).toBe('new');
    expect(existsSync(join(workspace, 'task.md'))).toBe(true);
    // The sandbox's own folder (its HOME among it) is gone; the workspace is the caller's.
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it.runIf(levels.includes('os'))(
    '(os isolation) lets a shell, as nobody, write its workspace and /tmp',
    async () => {
      const run = await mkdtemp(join(root, 'shell-'));
      const workspace = join(run, 'workspace');
      await mkdir(workspace);
      const script = [
        'id -u > uid.txt',
        'mkdir -p made && echo edited > made/by-shell.txt',
        'echo scratch > /tmp/scratch && cp /tmp/scratch made/from-tmp.txt',
        `echo '{}' > result.json`,
      ].join(' && ');
      const result = await runInSandbox({
        program: { entry: { command: ['/bin/sh', '-c', script] }, builtinArgs: [] },
        files: [],
        workspace,
        resultFile: 'result.json',
        accept: (json) => ({ ok: true, value: json }),
        who: 'program',
        timeoutMs: 30_000,
        attempts: 1,
        env: { PATH: process.env['PATH'] ?? '' },
        tmpRoot: run,
        isolation: 'os',
      });
      expect(result.ok, result.ok ? '' : result.message).toBe(true);
      expect((await readFile(join(workspace, 'uid.txt'), 'utf8')).trim()).toBe('65534');
      expect(await readFile(join(workspace, 'made', 'by-shell.txt'), 'utf8')).toBe('edited\n');
      expect(await readFile(join(workspace, 'made', 'from-tmp.txt'), 'utf8')).toBe('scratch\n');
    },
  );

  it('refuses a workspace given as a relative path', async () => {
    await expect(
      runInSandbox({
        program: { entry: { command: [process.execPath, script] }, builtinArgs: [] },
        files: [],
        workspace: 'relative/folder',
        resultFile: 'result.json',
        accept: (json) => ({ ok: true, value: json }),
        who: 'program',
        timeoutMs: 30_000,
        attempts: 1,
        tmpRoot: root,
      }),
    ).rejects.toThrow(/absolute path/);
  });
});
