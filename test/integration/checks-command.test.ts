import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/run-checks.js';
import type { CheckEntry } from '../../src/experiment/schema.js';
import { isAlive } from '../helpers/process-alive.js';

const baseDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/checks');
const node = process.execPath;

async function judge(entry: CheckEntry, output = 'a note about tea', signal?: AbortSignal) {
  const [outcome] = await runChecks({
    output,
    vars: { topic: 'tea' },
    checks: [entry],
    baseDir,
    env: process.env,
    ...(signal ? { signal } : {}),
  });
  if (outcome === undefined) throw new Error('no outcome');
  return outcome;
}

const topic: CheckEntry = { type: 'command', value: [node, 'cmd/topic-in-output.mjs'] };

describe('command checks', () => {
  it('passes on exit 0, reading the output on stdin and the vars from AUTORESEARCH_VARS', async () => {
    expect(await judge(topic)).toMatchObject({ pass: true, score: 1 });
  });

  it('fails on a non-zero exit with the last stderr lines', async () => {
    const outcome = await judge(topic, 'a note about coffee');
    expect(outcome).toMatchObject({ pass: false, score: 0 });
    expect(outcome.error).toBeUndefined();
    expect(outcome.reason).toContain('exited with code 3');
    expect(outcome.reason).toContain('topic "tea" missing\noutput had 19 chars');
  });

  it('keeps only the last lines of a long stderr', async () => {
    const outcome = await judge({ type: 'command', value: [node, 'cmd/many-stderr-lines.mjs'] });
    expect(outcome.reason).toMatch(/line 16\nline 17\nline 18\nline 19\nline 20$/);
    expect(outcome.reason).not.toContain('line 15');
  });

  it('reads a JSON verdict on stdout', async () => {
    const verdict = (json: string, code = '0'): CheckEntry => ({
      type: 'command',
      value: [node, 'cmd/verdict.mjs', json, code],
    });
    expect(await judge(verdict('{"pass": false, "score": 0.4, "reason": "too long"}'))).toMatchObject({
      pass: false,
      score: 0.4,
      reason: 'too long',
    });
    expect(await judge(verdict('{"pass": true, "score": 0.8}'))).toMatchObject({ pass: true, score: 0.8 });
    expect(await judge({ ...verdict('{"pass": true, "score": 0.3}'), threshold: 0.5 })).toMatchObject({
      pass: false,
      score: 0.3,
    });
    expect(await judge(verdict('not json'))).toMatchObject({ pass: true, score: 1 });
    expect(await judge(verdict('{"pass": true}', '1'))).toMatchObject({ pass: false, score: 0 });
  });

  it('is negated, weighted and gated', async () => {
    expect(await judge({ ...topic, type: 'not-command', weight: 0.5, gate: true })).toMatchObject({
      pass: false,
      score: 0,
      weight: 0.5,
      gate: true,
    });
    expect(await judge({ ...topic, type: 'not-command' }, 'coffee')).toMatchObject({ pass: true, score: 1 });
  });

  it('kills a program at the timeout and fails, even negated', async () => {
    const started = Date.now();
    const outcome = await judge({ type: 'not-command', value: [node, 'cmd/sleep.mjs'], timeout_s: 0.5 });
    expect(outcome).toMatchObject({ pass: false, score: 0, error: true });
    expect(outcome.reason).toContain('timed out after 0.5s');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('passes at once when the program exits 0 leaving a process in the background, which is killed', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ar-check-background-'));
    const pidFile = path.join(dir, 'pid');
    try {
      const started = Date.now();
      const outcome = await judge({
        type: 'command',
        value: ['sh', '-c', 'sleep 300 & echo $! > "$0"', pidFile],
        timeout_s: 20,
      });
      expect(outcome).toMatchObject({ pass: true, score: 1 });
      expect(outcome.error).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(5000);
      const pid = Number(await readFile(pidFile, 'utf8'));
      for (let waited = 0; isAlive(pid) && waited < 3000; waited += 50)
        await new Promise((r) => setTimeout(r, 50));
      expect(isAlive(pid)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails when the program cannot start', async () => {
    const outcome = await judge({ type: 'command', value: ['autoresearch-no-such-program'] });
    expect(outcome).toMatchObject({ pass: false, error: true });
    expect(outcome.reason).toMatch(/could not start/);
  });

  it('runs in the experiment folder and never through a shell', async () => {
    expect((await judge({ type: 'command', value: [node, 'cmd/print-cwd.mjs'] })).reason).toBe(baseDir);
    const outcome = await judge({ type: 'command', value: ['echo hi && exit 0'] });
    expect(outcome).toMatchObject({ pass: false, error: true });
  });

  it('streams a megabyte of output, also to a program that never reads it', async () => {
    const huge = 'é'.repeat(500_000);
    expect((await judge({ type: 'command', value: [node, 'cmd/count-bytes.mjs'] }, huge)).reason).toBe(
      '1000000 bytes',
    );
    expect(await judge({ type: 'command', value: [node, 'cmd/ignore-stdin.mjs'] }, huge)).toMatchObject({
      pass: true,
    });
  });

  it('stops at an abort', async () => {
    const controller = new AbortController();
    const pending = judge({ type: 'command', value: [node, 'cmd/sleep.mjs'] }, 'x', controller.signal);
    setImmediate(() => controller.abort(new Error('interrupted')));
    await expect(pending).rejects.toThrow('interrupted');
  });
});
