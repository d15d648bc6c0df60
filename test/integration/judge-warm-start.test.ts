/**
 * A judge started before its outputs exist (startSandboxedProgram): it runs in an empty
 * sandbox with its stdin held, sees its files only once they are written and its settings
 * sent, its timeout counts from then, and a cancelled one leaves no process and no folder.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxedProgram } from '../../src/sandbox/run-sandboxed-program.js';
import { isAlive } from '../helpers/process-alive.js';

// Notes when it started and what its folder held then, waits for stdin, then reports what
// it read and what the folder holds now. Its pid goes to the file its argument names (outside
// the sandbox; the sandbox's environment is allow-listed, so it cannot come that way).
const PROGRAM = `
const fs = require('node:fs');
const startedAt = Date.now();
const before = fs.readdirSync('.');
fs.writeFileSync(process.argv[2], String(process.pid));
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const after = fs.readdirSync('.', { recursive: true }).sort();
  fs.writeFileSync('result.json', JSON.stringify({ startedAt, readAt: Date.now(), before, after, input }));
});
`;

let root: string;
let script: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'warm-start-'));
  script = join(root, 'program.cjs');
  await writeFile(script, PROGRAM);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function waitForFile(file: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} did not appear`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Starts the program early in a fresh temp root; resolves once it is running and waiting. */
async function startWaiting(name: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
  const tmpRoot = await mkdtemp(join(root, 't-'));
  const pidFile = join(root, `pid-${name}`);
  const started = await startSandboxedProgram({
    argv: [process.execPath, script, pidFile],
    resultFile: 'result.json',
    timeoutMs: options.timeoutMs ?? 60_000,
    env: { PATH: process.env['PATH'] ?? '' },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    tmpRoot,
  });
  await waitForFile(pidFile);
  return { started, tmpRoot, pid: Number(await readFile(pidFile, 'utf8')) };
}

describe('startSandboxedProgram', () => {
  it('runs the program in an empty sandbox until its files and settings are handed over', async () => {
    // A timeout shorter than the wait below: it must count from the hand-over, not the start.
    const { started, tmpRoot } = await startWaiting('1', { timeoutMs: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const handedOverAt = Date.now();
    const outcome = await started.finish(
      [
        { path: 'outputs/output_00.txt', text: 'first' },
        { path: 'rubric.md', text: '# Rubric' },
      ],
      '{"provider":"sim"}',
    );
    expect(outcome.process.exitCode).toBe(0);
    expect(outcome.process.timedOut).toBe(false);
    expect(outcome.result.kind).toBe('text');
    const result = JSON.parse(outcome.result.kind === 'text' ? outcome.result.text : '{}') as {
      startedAt: number;
      readAt: number;
      before: string[];
      after: string[];
      input: string;
    };
    expect(result.startedAt).toBeLessThan(handedOverAt);
    expect(result.before).toEqual([]);
    expect(result.after).toEqual(['outputs', 'outputs/output_00.txt', 'rubric.md']);
    expect(result.input).toBe('{"provider":"sim"}');
    // The sandbox and its HOME are gone.
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('stops a program that is not needed and removes its sandbox', async () => {
    const { started, tmpRoot, pid } = await startWaiting('2');
    expect(isAlive(pid)).toBe(true);
    await started.cancel();
    expect(isAlive(pid)).toBe(false);
    expect(await readdir(tmpRoot)).toEqual([]);
    // Cancelling twice, or after the end, is harmless.
    await started.cancel();
  });

  it('lets the caller abort a waiting program', async () => {
    const controller = new AbortController();
    const { started, tmpRoot } = await startWaiting('3', { signal: controller.signal });
    controller.abort();
    const outcome = await started.finish([{ path: 'rubric.md', text: '# R' }], '{}');
    expect(outcome.process.aborted).toBe(true);
    expect(outcome.result).toEqual({ kind: 'missing' });
    expect(await readdir(tmpRoot)).toEqual([]);
  });
});
