/**
 * Reading a journal with damaged lines, against the event schemas (events.ts): over every
 * event of the fixture runs, events with every optional field, and damaged copies of all of
 * them (each field removed, nulled, replaced by values of other types and out of range, an
 * unknown key added), a journal of them reads every line the schemas accept and reports —
 * by line number, without stopping — every line they refuse.
 */
import { describe, expect, it } from 'vitest';
import { checkEvent, parseJournal } from '../../../src/run/journal.js';
import { RunEvent, type RunEventBody, stampEvent } from '../../../src/run/events.js';
import { planFixtureRun } from '../../helpers/fixture-run.js';

const AT = new Date('2026-11-30T05:00:00.000Z');
const sha = 'ab'.repeat(32);
const score = { total: 0.5, checks: 1, judge: null, expectations: 0 };

const BODIES: RunEventBody[] = [
  {
    type: 'run_started',
    runId: 'r',
    kind: 'eval',
    experiment: 'e',
    configDigest: sha,
    overrides: { concurrency: 4, nested: { a: [1] } },
    git: { branch: 'b', base: 'c', baselineCommit: 'd' },
    simulated: ['generator', 'judge'],
  },
  {
    type: 'run_started',
    runId: 'r',
    kind: 'run',
    experiment: 'e',
    configDigest: sha,
    overrides: {},
    git: null,
    simulated: [],
  },
  { type: 'run_resumed', overrides: { iterations: 5 }, rebaseline: true },
  { type: 'iteration_started', iteration: 3, strategy: 'bold' },
  { type: 'phase', iteration: 1, phase: 'grading', candidate: 2, done: 3, total: 4 },
  { type: 'phase', iteration: 0, phase: 'final' },
  { type: 'proposal', iteration: 1, candidate: 0, hypothesis: '', promptSha256: sha, duplicate: true },
  {
    type: 'candidate_evaluated',
    iteration: 1,
    candidate: 0,
    repeat: 2,
    scores: { train: score, holdout: score, all: score },
    gateFailure: 'starts-with failed on case-1',
    criteria: { clarity: 1, tone: 5, depth: 3.25 },
    costUsd: 0.01,
  },
  {
    type: 'noise_margin',
    iteration: 0,
    train: 0.02,
    holdout: null,
    repeats: [{ train: 0.5, holdout: null }],
    mean: { train: 0.5, holdout: 0.4 },
  },
  {
    type: 'iteration_finished',
    iteration: 2,
    status: 'error',
    candidate: null,
    train: null,
    holdout: null,
    incumbentBefore: 0.5,
    delta: -0.25,
    errorKind: 'judge_error',
    message: 'the judge wrote no file',
    hypothesis: null,
    promptSha256: null,
    costUsd: 0,
    seconds: 12.5,
  },
  { type: 'commit', iteration: 1, sha: 'abcdef1' },
  { type: 'spend', role: 'grader', usd: 0.1, calls: 3, iteration: 1, phase: 'grading' },
  { type: 'spend', role: 'mutator', usd: 0, calls: 0 },
  {
    type: 'final_evaluation',
    baseline: { train: 0.4, holdout: null },
    best: { iteration: 2, train: 1, holdout: 0 },
  },
  { type: 'run_stopped', reason: 'stop_requested', message: '' },
  { type: 'warning', message: 'w', iteration: 0 },
  { type: 'warning', message: 'w' },
];

const VALID: unknown[] = [
  ...BODIES.map((body) => stampEvent(body, AT)),
  ...planFixtureRun().events,
  ...planFixtureRun({ scenario: 'sparse', running: true }).events,
];

// Values of other types and at the edges of every range the schemas use.
const REPLACEMENTS: unknown[] = [
  null,
  true,
  '',
  'x',
  0,
  -1,
  1.5,
  6,
  -1e-10,
  1 + 1e-10,
  1 + 1e-8,
  -1e-8,
  2 ** 53,
  [],
  [1],
  {},
  'focused',
  'judge',
  'final',
  sha,
  'abcdef',
  '2026-11-30T05:00:00Z',
  '2026-11-30T05:00:00.5+01:00',
  '2026-11-30T05:00Z',
  '2026-11-30 05:00:00Z',
  '2026-02-29T05:00:00Z',
  '2028-02-29T05:00:00Z',
  '2026-11-30T24:00:00Z',
  '2026-11-30T05:00:00',
  '2026-11-30T05:00:00+24:00',
];

type Json = unknown;

/** Every copy of `value` with one thing changed somewhere inside it. */
function* damaged(value: Json): Generator<Json> {
  if (Array.isArray(value)) {
    yield [...value, value[0] ?? 'x'];
    yield value.slice(1);
    for (let i = 0; i < value.length; i += 1) {
      for (const replacement of REPLACEMENTS) yield value.map((v, j) => (j === i ? replacement : v));
      for (const inner of damaged(value[i])) yield value.map((v, j) => (j === i ? inner : v));
    }
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, Json>;
  yield { ...record, unexpected: 1 };
  for (const key of Object.keys(record)) {
    const { [key]: _removed, ...rest } = record;
    yield rest;
    for (const replacement of REPLACEMENTS) yield { ...record, [key]: replacement };
    for (const inner of damaged(record[key])) yield { ...record, [key]: inner };
  }
}

describe('a journal of valid and damaged events', () => {
  it('reads every valid event unchanged', () => {
    const read = parseJournal(VALID.map((event) => `${JSON.stringify(event)}\n`).join(''));
    expect(read.invalidLines).toEqual([]);
    expect(read.events).toEqual(VALID);
  });

  it('reads what the schemas accept and reports, by line, what they refuse — over damaged copies of every event', () => {
    const lines: string[] = [];
    const refusedLines: number[] = [];
    const accepted: unknown[] = [];
    for (const event of VALID) {
      for (const copy of damaged(event)) {
        lines.push(JSON.stringify(copy));
        if (RunEvent.safeParse(copy).success) accepted.push(copy);
        else refusedLines.push(lines.length);
      }
    }
    // A torn last line rides along: ignored and reported, never an invalid line.
    const read = parseJournal(`${lines.join('\n')}\n{"v":1,"at":"2026-11-30T05:00:00.000Z","ty`);
    expect(read.tornTail).toBe(true);
    expect(read.invalidLines.map((invalid) => invalid.line)).toEqual(refusedLines);
    expect(read.events).toEqual(accepted);
    for (const invalid of read.invalidLines) expect(invalid.message).not.toBe('');
    // The corpus is not trivial: it holds many of both.
    expect(lines.length).toBeGreaterThan(10_000);
    expect(refusedLines.length).toBeGreaterThan(lines.length / 2);
    expect(accepted.length).toBeGreaterThan(500);
  });

  it('says where the problem is', () => {
    const event = stampEvent(BODIES[7]!, AT) as Record<string, unknown>;
    const bad = { ...event, scores: { ...(event['scores'] as object), train: { ...score, total: 2 } } };
    expect(checkEvent(bad)).toEqual({ ok: false, message: expect.stringMatching(/^scores\.train\.total: /) });
    expect(checkEvent({ ...event, type: 'nope' })).toEqual({
      ok: false,
      message: expect.stringMatching(/^type: /),
    });
    expect(checkEvent({ ...event, extra: 1 })).toEqual({
      ok: false,
      message: expect.stringContaining('extra'),
    });
    expect(checkEvent({ v: 1 })).toEqual({ ok: false, message: expect.stringMatching(/^type: /) });
    expect(checkEvent([])).toMatchObject({ ok: false });
  });

  it('reports lines that are not JSON or come from a newer autoresearch, and reads on', () => {
    const [first, second] = VALID as [unknown, unknown];
    const text = [
      JSON.stringify(first),
      'not json',
      JSON.stringify({ ...(second as object), v: 99 }),
      JSON.stringify(second),
    ]
      .map((line) => `${line}\n`)
      .join('');
    const read = parseJournal(text);
    expect(read.events).toEqual([first, second]);
    expect(read.invalidLines).toEqual([
      { line: 2, message: 'not JSON' },
      { line: 3, message: 'written by a newer autoresearch (event version 99)' },
    ]);
  });
});
