/**
 * The limits of a sandboxed program (docs/design/isolation.md "Limits"): their defaults, how
 * prlimit is told them, which one a failure points at, and how a folder's size is counted.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SandboxLimitsConfig } from '../../../src/experiment/schema.js';
import type { ProcessResult } from '../../../src/process/run-process.js';
import { folderBytes } from '../../../src/sandbox/folder-size-watch.js';
import {
  DEFAULT_LIMITS,
  limitNote,
  resolveLimits,
  rlimitOptions,
} from '../../../src/sandbox/sandbox-limits.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const failed = (over: Partial<ProcessResult>): ProcessResult => ({
  exitCode: 1,
  signal: null,
  timedOut: false,
  aborted: false,
  stdout: '',
  stderr: '',
  ...over,
});

describe('sandbox limits', () => {
  it('default each key left out, and refuse a memory limit Node cannot start under', () => {
    expect(resolveLimits(undefined)).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits({ tmp_mb: 8 })).toEqual({ ...DEFAULT_LIMITS, tmp_mb: 8 });
    expect(SandboxLimitsConfig.safeParse({ memory_mb: 32 }).success).toBe(false);
    expect(SandboxLimitsConfig.safeParse({ disk_mb: 0 }).success).toBe(false);
    expect(SandboxLimitsConfig.safeParse({ swap_mb: 1 }).success).toBe(false);
  });

  it('set memory and file size, soft and hard alike', () => {
    expect(rlimitOptions({ memory_mb: 64, tmp_mb: 1, disk_mb: 2 })).toEqual([
      `--data=${64 * 1024 * 1024}`,
      `--fsize=${2 * 1024 * 1024}`,
    ]);
  });

  it('name the limit a failure points at, and none otherwise', () => {
    expect(limitNote(failed({ exitCode: 153 }), DEFAULT_LIMITS)).toMatch(
      /judging\.limits\.disk_mb \(1024 MB\)/,
    );
    expect(limitNote(failed({ stderr: 'Error: EFBIG: file too large' }), DEFAULT_LIMITS)).toMatch(/disk_mb/);
    expect(limitNote(failed({ stderr: 'ENOSPC: no space left' }), DEFAULT_LIMITS)).toMatch(
      /tmp_mb \(512 MB\)/,
    );
    expect(
      limitNote(failed({ exitCode: 134, stderr: 'JavaScript heap out of memory' }), DEFAULT_LIMITS),
    ).toMatch(/memory_mb \(2048 MB\)/);
    expect(limitNote(failed({ stderr: 'TypeError: x is undefined' }), DEFAULT_LIMITS)).toBeUndefined();
  });
});

describe('folderBytes', () => {
  const tmp = useTempDir('ar-folder-bytes-');

  it('counts what each entry holds on disk, and at least one block for each', async () => {
    const dir = tmp();
    await mkdir(join(dir, 'sub'));
    for (let i = 0; i < 10; i += 1) await writeFile(join(dir, 'sub', `empty-${i}`), '');
    await writeFile(join(dir, 'data'), Buffer.alloc(100_000, 1));
    const bytes = await folderBytes([dir]);
    // The folder and ten empty files at a block each, and the data's ~100 kB.
    expect(bytes).toBeGreaterThanOrEqual(11 * 4096 + 100_000);
    expect(bytes).toBeLessThan(11 * 4096 + 200_000);
    // A walk asked to stop once past a size stops early.
    expect(await folderBytes([dir], 10_000)).toBeLessThan(bytes);
  });
});
