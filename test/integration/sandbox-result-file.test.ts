/**
 * The result file is read back from a folder the program controlled (read-result-file.ts): a
 * link it left there to a host file, or a folder link leading out, is no result, and a FIFO in
 * its place does not hold the runner; the message says what it found and quotes none of it.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInSandbox } from '../../src/sandbox/run-in-sandbox.js';

const SECRET = '{"secret":"host-file-0xfeed"}';

// Leaves its result as the argument says: written, a link to the host file, a link to its folder, a FIFO.
const PROGRAM = `
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const [how, secretFile, secretDir] = process.argv.slice(2);
if (how === 'written') fs.writeFileSync('result.json', '{"fine":true}');
if (how === 'file-link') fs.symlinkSync(secretFile, 'result.json');
if (how === 'folder-link') fs.symlinkSync(secretDir, 'out');
if (how === 'fifo') execFileSync('mkfifo', ['result.json']);
`;

let root: string;
let script: string;
let secretDir: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sbx-result-'));
  script = join(root, 'program.cjs');
  secretDir = join(root, 'host');
  await writeFile(script, PROGRAM);
  await mkdir(secretDir);
  await writeFile(join(secretDir, 'result.json'), SECRET);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function leave(how: string, resultFile = 'result.json') {
  const tmpRoot = await mkdtemp(join(root, 't-'));
  const result = await runInSandbox({
    program: {
      entry: { command: [process.execPath, script, how, join(secretDir, 'result.json'), secretDir] },
      builtinArgs: [],
    },
    files: [],
    resultFile,
    accept: (json) => ({ ok: true, value: json }),
    who: 'program',
    timeoutMs: 30_000,
    attempts: 1,
    env: { PATH: process.env['PATH'] ?? '' },
    tmpRoot,
  });
  expect(await readdir(tmpRoot)).toEqual([]);
  return result;
}

describe('reading a program’s result file', () => {
  it('reads a file the program wrote', async () => {
    expect(await leave('written')).toMatchObject({ ok: true, value: { fine: true } });
  });

  it.each([
    ['a link to a host file', 'file-link', 'result.json', 'is a symbolic link, not a regular file'],
    [
      'a file behind a folder link that leads out',
      'folder-link',
      'out/result.json',
      'lies behind a link that leads out of the folder',
    ],
    ['a FIFO', 'fifo', 'result.json', 'is a FIFO, not a regular file'],
  ])('takes %s for no result, saying what it was', async (_what, how, resultFile, why) => {
    const result = await leave(how, resultFile);
    expect(result).toMatchObject({
      ok: false,
      message: `the program's ${resultFile} was not read: it ${why} (after 1 attempt)`,
    });
    expect(JSON.stringify(result)).not.toContain('0xfeed');
  });
});
