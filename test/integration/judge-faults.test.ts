/**
 * Judges that misbehave never produce a score: every fault is retried and then
 * reported as a judge_error, and a judge's own arithmetic is ignored in favour of ours.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRubric } from '../../src/experiment/rubric.js';
import type { Rubric } from '../../src/experiment/types.js';
import { runJudge } from '../../src/judge/run-judge.js';
import { isAlive } from '../helpers/process-alive.js';

const FAULT = resolve('test/fixtures/judges/fault-judge.mjs');
const rubric = parseRubric('rubric.md', '## Criteria\n\n### Clarity\n\n### Tone\n').rubric as Rubric;
const outputs = [
  { caseId: 'a', sample: 0, text: 'first score:4' },
  { caseId: 'b', sample: 0, text: 'second score:2' },
  { caseId: 'c', sample: 0, text: 'third score:5' },
];
let scratch: string;
let tmpRoot: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'judge-faults-'));
  tmpRoot = await mkdtemp(join(tmpdir(), 'judge-faults-sandboxes-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
  await rm(tmpRoot, { recursive: true, force: true });
});

function judgeWith(
  mode: string,
  extra: { state?: string; timeoutMs?: number; attempts?: number; signal?: AbortSignal } = {},
) {
  return runJudge({
    outputs,
    rubric,
    judge: { command: [process.execPath, FAULT, mode, ...(extra.state === undefined ? [] : [extra.state])] },
    seed: 3,
    timeoutMs: extra.timeoutMs ?? 20_000,
    tmpRoot,
    ...(extra.attempts === undefined ? {} : { attempts: extra.attempts }),
    ...(extra.signal === undefined ? {} : { signal: extra.signal }),
  });
}

describe('judge faults', () => {
  it.each([
    ['a non-zero exit (even with a valid file)', 'exit1', /exited with code 1: judge crashed after writing/],
    ['garbage JSON', 'garbage', /judge-scores.json is not valid JSON/],
    ['no file at all', 'nothing', /wrote no judge-scores.json/],
    ['a missing output', 'missing-output', /output_00.txt was not scored/],
    ['an extra criterion', 'extra-criterion', /"humour", which the rubric does not define/],
    ['a score of 7', 'score-seven', /clarity is 7, expected an integer 1-5/],
  ])('%s is retried, then a judge_error', async (_, mode, message) => {
    const result = await judgeWith(mode);
    expect(result).toMatchObject({ ok: false, kind: 'judge_error', attempts: 2 });
    if (!result.ok) expect(result.message).toMatch(message);
    if (!result.ok) expect(result.message).toMatch(/after 2 attempts/);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('ignores a judge’s wrong arithmetic and maps scores back through the shuffle', async () => {
    const result = await judgeWith('wrong-arithmetic');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect((result.raw as { quality_score: number }).quality_score).toBe(0.99);
    const byCase = Object.fromEntries(result.perOutput.map((o) => [o.caseId, o.criteria]));
    expect(byCase).toEqual({
      a: { clarity: 4, tone: 4 },
      b: { clarity: 2, tone: 2 },
      c: { clarity: 5, tone: 5 },
    });
    expect(result.criteriaAverages).toEqual({ clarity: 11 / 3, tone: 11 / 3 });
    expect(result.qualityScore).toBeCloseTo(11 / 15);
  });

  it('succeeds on the second attempt after a bad first one', async () => {
    const result = await judgeWith('flaky', { state: join(scratch, 'flaky-state') });
    expect(result).toMatchObject({ ok: true, attempts: 2 });
  });

  it('kills a judge that runs past its timeout, with everything it started', async () => {
    const pidFile = join(scratch, 'grandchild.pid');
    const result = await judgeWith('hang', { state: pidFile, timeoutMs: 1500, attempts: 1 });
    expect(result).toMatchObject({ ok: false, kind: 'judge_error', attempts: 1 });
    if (!result.ok) expect(result.message).toMatch(/did not finish within 2 s and was killed/);
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    expect(isAlive(grandchild)).toBe(false);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('stops at once when the run is interrupted', async () => {
    const controller = new AbortController();
    const pidFile = join(scratch, 'aborted.pid');
    const started = judgeWith('hang', { state: pidFile, timeoutMs: 60_000, signal: controller.signal });
    // Abort once the judge is demonstrably running (its grandchild wrote the pid file).
    while (!existsSync(pidFile)) await new Promise((r) => setImmediate(r));
    controller.abort();
    const result = await started;
    expect(result).toMatchObject({ ok: false, kind: 'judge_error' });
    if (!result.ok) expect(result.message).toMatch(/interrupted/);
    expect(result.attempts).toBeLessThanOrEqual(1);
  });

  it('reports a program that cannot be started', async () => {
    const result = await runJudge({
      outputs,
      rubric,
      judge: { command: ['definitely-not-a-judge-xyz'] },
      seed: 1,
      attempts: 1,
      tmpRoot,
    });
    expect(result).toMatchObject({
      ok: false,
      kind: 'judge_error',
      message: expect.stringMatching(/could not be started/),
    });
  });

  it('never runs without outputs', async () => {
    expect(
      await runJudge({ outputs: [], rubric, judge: { command: ['node', FAULT, 'valid'] }, seed: 1 }),
    ).toEqual({
      ok: false,
      kind: 'judge_error',
      message: 'there are no outputs to judge',
      attempts: 0,
    });
  });
});
