/**
 * The limits of a program under `os` isolation (docs/design/isolation.md "Limits",
 * `judging.limits`), each hit on purpose with a small one: /tmp is a sized tmpfs, no file may
 * pass disk_mb, the folder may not grow by more than disk_mb in all (the watcher stops the
 * program), and memory is bounded per process. Each failure says which limit it ran into.
 * Needs `npm run build` and a working bubblewrap.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemBwrapProbe } from '../../src/sandbox/isolation.js';
import { runInSandbox } from '../../src/sandbox/run-in-sandbox.js';
import { DEFAULT_LIMITS, type SandboxLimits } from '../../src/sandbox/sandbox-limits.js';
import { requireBuiltCli } from '../helpers/built-cli.js';

let work: string;
beforeAll(async () => {
  requireBuiltCli();
  expect(systemBwrapProbe(), 'bubblewrap must work here').toBeUndefined();
  work = await mkdtemp(join(tmpdir(), 'ar-limits-'));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function runLimited(command: string[], limits: Partial<SandboxLimits>) {
  const started = Date.now();
  const result = await runInSandbox({
    program: { entry: { command }, builtinArgs: [] },
    files: [],
    resultFile: 'result.json',
    accept: (json) => ({ ok: true, value: json }),
    who: 'judge',
    timeoutMs: 30_000,
    attempts: 1,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    commandCwd: work,
    isolation: 'os',
    limits: { ...DEFAULT_LIMITS, ...limits },
  });
  return { message: result.ok ? 'ok' : result.message, ms: Date.now() - started };
}

const sh = (script: string) => ['/bin/sh', '-c', `${script} && echo '{}' > result.json`];

describe('under os isolation a program', () => {
  it('has a /tmp of tmp_mb', async () => {
    const { message } = await runLimited(sh('head -c 3000000 /dev/zero > /tmp/fill'), { tmp_mb: 2 });
    expect(message).toMatch(/No space left on device.*judging\.limits\.tmp_mb \(2 MB\)/);
    // The same file fits a larger /tmp.
    expect((await runLimited(sh('head -c 3000000 /dev/zero > /tmp/fill'), { tmp_mb: 8 })).message).toBe('ok');
  });

  it('cannot write a file larger than disk_mb', async () => {
    const { message } = await runLimited(sh('head -c 3000000 /dev/zero > big'), { disk_mb: 2 });
    expect(message).toMatch(
      /exited with code 153.*a file reached the largest size allowed, judging\.limits\.disk_mb \(2 MB\)/,
    );
  });

  it('is stopped once it has added more than disk_mb to its folder', async () => {
    const script = 'for i in 1 2 3 4; do head -c 1500000 /dev/zero > part$i; done; sleep 25';
    const { message, ms } = await runLimited(sh(script), { disk_mb: 4 });
    expect(message).toMatch(/wrote more than judging\.limits\.disk_mb \(4 MB\) to disk and was stopped/);
    expect(ms).toBeLessThan(15_000);
  });

  it('has its memory bounded by memory_mb', async () => {
    const hog = 'const kept = []; for (;;) kept.push(Buffer.alloc(1 << 20, 1));';
    const { message } = await runLimited([process.execPath, '-e', hog], { memory_mb: 128 });
    expect(message).toMatch(/ran out of memory; each process may use judging\.limits\.memory_mb \(128 MB\)/);
  });
});
