/**
 * The reader of files a sandboxed program left (read-result-file.ts): a regular file inside the
 * folder, under the cap, is read; a link, a FIFO, a device, a /proc file or an oversized file is
 * refused at once, said by what it is, and nothing of what it holds appears in the answer.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESULT_FILE_CAP_BYTES, readResultFile } from '../../../src/sandbox/read-result-file.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const SECRET = 'host-secret-0xfeed';
const tmp = useTempDir('read-result-');

/** A host file the program must not have read for it, and the program's folder beside it. */
async function layout(): Promise<{ host: string; box: string }> {
  const host = join(tmp(), 'host');
  const box = join(tmp(), 'box');
  await mkdir(host);
  await mkdir(box);
  await writeFile(join(host, 'result.json'), `{"secret":"${SECRET}"}`);
  return { host, box };
}

function expectRefused(result: unknown, why: RegExp): void {
  expect(result).toMatchObject({ kind: 'refused', why: expect.stringMatching(why) });
  expect(JSON.stringify(result)).not.toContain(SECRET);
}

describe('readResultFile', () => {
  it('reads a regular file the program wrote', async () => {
    const { box } = await layout();
    await writeFile(join(box, 'result.json'), '{"fine":true}');
    expect(await readResultFile(box, 'result.json')).toEqual({ kind: 'text', text: '{"fine":true}' });
  });

  it('says there is none when the program wrote none', async () => {
    const { box } = await layout();
    expect(await readResultFile(box, 'result.json')).toEqual({ kind: 'missing' });
    expect(await readResultFile(box, 'out/result.json')).toEqual({ kind: 'missing' });
  });

  it('refuses a link to a host file, and a link to a link', async () => {
    const { host, box } = await layout();
    await symlink(join(host, 'result.json'), join(box, 'result.json'));
    expectRefused(await readResultFile(box, 'result.json'), /^is a symbolic link, not a regular file$/);
    await symlink('result.json', join(box, 'again.json'));
    expectRefused(await readResultFile(box, 'again.json'), /symbolic link/);
  });

  it('refuses a file behind a folder link that leads out', async () => {
    const { host, box } = await layout();
    await symlink(host, join(box, 'out'));
    expectRefused(
      await readResultFile(box, 'out/result.json'),
      /^lies behind a link that leads out of the folder$/,
    );
  });

  it('refuses a FIFO at once, with no writer at its other end', async () => {
    const { box } = await layout();
    execFileSync('mkfifo', [join(box, 'result.json')]);
    const started = Date.now();
    expectRefused(await readResultFile(box, 'result.json'), /^is a FIFO, not a regular file$/);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses a device without reading from it', async () => {
    // /dev itself as the folder: a device node there is what a program with mknod could leave.
    expectRefused(await readResultFile('/dev', 'zero'), /^is a character device, not a regular file$/);
  });

  it('refuses a file of /proc, which says it is empty and is not', async () => {
    const result = await readResultFile('/proc/self', 'environ');
    expectRefused(result, /^holds more than its size says$/);
    expect(JSON.stringify(result)).not.toContain('PATH=');
  });

  it('refuses a file over the cap by its size, reading none of it', async () => {
    const { box } = await layout();
    const big = join(box, 'result.json');
    await writeFile(big, '');
    // Sparse: a gigabyte on paper, nothing on disk; read, it would take a gigabyte of memory.
    await truncate(big, 1024 ** 3);
    const started = Date.now();
    expectRefused(
      await readResultFile(box, 'result.json'),
      new RegExp(
        `^is too large: ${1024 ** 3} bytes, ${1024 ** 3 - RESULT_FILE_CAP_BYTES} over the cap of ${RESULT_FILE_CAP_BYTES}$`,
      ),
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reads a file exactly at the cap and refuses one byte more', async () => {
    const { box } = await layout();
    await writeFile(join(box, 'at.json'), 'x'.repeat(64));
    await writeFile(join(box, 'over.json'), `${SECRET}${'x'.repeat(65 - SECRET.length)}`);
    expect(await readResultFile(box, 'at.json', 64)).toEqual({ kind: 'text', text: 'x'.repeat(64) });
    expectRefused(
      await readResultFile(box, 'over.json', 64),
      /^is too large: 65 bytes, 1 over the cap of 64$/,
    );
  });

  it('refuses a folder in the file’s place', async () => {
    const { box } = await layout();
    await mkdir(join(box, 'result.json'));
    expectRefused(await readResultFile(box, 'result.json'), /^is a folder, not a regular file$/);
  });
});
