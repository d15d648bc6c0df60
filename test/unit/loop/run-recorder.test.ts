/**
 * The recorder's derived files and hooks: results.tsv follows the journal as a listener, a
 * failing listener loses no event, kill points fire at their moment of an append, and every
 * event carries the run's record version.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKillPoint } from '../../../src/loop/kill-point.js';
import { createRunRecorder } from '../../../src/loop/run-recorder.js';
import type { RunEvent, RunEventBody } from '../../../src/run/events.js';
import { readJournal } from '../../../src/run/journal.js';
import { runPaths } from '../../../src/run/paths.js';
import { formatResultsTsv, RESULTS_COLUMNS } from '../../../src/run/results-tsv.js';
import { JournalBuilder } from '../../fixtures/runs/journal-builder.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('ar-recorder-');
const now = () => new Date('2026-12-01T10:00:00.000Z');

function bodies(events: readonly RunEvent[]): RunEventBody[] {
  return events.map(({ v: _v, at: _at, ...body }) => body as RunEventBody);
}

// As the loop journals a keep: decided first, its commit after.
const RUN = new JournalBuilder()
  .start()
  .baseline([0.5])
  .iteration(1, { status: 'keep', train: 0.7 })
  .push({ type: 'commit', iteration: 1, sha: 'abcdef1' })
  .iteration(2, { status: 'discard', train: 0.6 })
  .stop('iterations').events;

describe('createRunRecorder', () => {
  it('writes results.tsv after each finished iteration, exactly what the journal folds to', async () => {
    const dir = tmp();
    const recorder = createRunRecorder(dir, [], now);
    const file = runPaths(dir).results;
    for (const body of bodies(RUN)) {
      await recorder.emit(body);
      if (body.type === 'iteration_finished' || body.type === 'commit' || body.type === 'run_stopped') {
        expect(await readFile(file, 'utf8')).toBe(formatResultsTsv(recorder.state()));
      }
    }
    expect(recorder.state().iterations).toHaveLength(3);
  });

  it('journals and folds an event whatever a listener does, tells the caller, and goes on', async () => {
    const dir = tmp();
    const recorder = createRunRecorder(dir, [], now);
    const heard: string[] = [];
    recorder.onEvent(() => {
      throw new Error('the listener broke');
    });
    recorder.onEvent((event) => {
      heard.push(event.type);
    });
    const [start, ...rest] = bodies(RUN);
    await expect(recorder.emit(start!)).rejects.toThrow('the listener broke');
    expect(heard).toEqual(['run_started']);
    expect(recorder.state().start).not.toBeNull();
    await expect(recorder.emit(...rest)).rejects.toThrow('the listener broke');
    expect((await readJournal(dir)).events.map((e) => e.type)).toEqual(RUN.map((e) => e.type));
    // results.tsv is a listener too, and a broken neighbour does not stop it.
    expect(await readFile(runPaths(dir).results, 'utf8')).toBe(formatResultsTsv(recorder.state()));
  });

  it('rewrites a results.tsv an older build laid out differently once a resume stops', async () => {
    const dir = tmp();
    // The greedy layout builds before the one format wrote: no candidate, parents or member.
    await writeFile(
      runPaths(dir).results,
      'iteration\tcommit\tscore\tbest\tdelta\tdelta_lo\tdelta_hi\tn_cases\tchecks\tjudge\texpectations\tholdout\tstatus\tcost_usd\tseconds\thypothesis\n' +
        '0\t\t0.5000\t0.5000\t\t\t\t\t0.5000\t0.5000\t\t\tbaseline\t0.0200\t1\t\n',
    );
    const journal = new JournalBuilder()
      .start()
      .baseline([0.5])
      .iteration(1, { status: 'discard', train: 0.4 }).events;
    const recorder = createRunRecorder(dir, journal, now);
    await recorder.emit(...bodies(new JournalBuilder().resume().stop('iterations').events));
    const text = await readFile(runPaths(dir).results, 'utf8');
    expect(text).toBe(formatResultsTsv(recorder.state()));
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .map((line) => line.split('\t').length),
    ).toEqual([RESULTS_COLUMNS.length, RESULTS_COLUMNS.length, RESULTS_COLUMNS.length]);
  });

  it('stamps every event with the run’s record version', async () => {
    const dir = tmp();
    const recorder = createRunRecorder(dir, [], now, { version: 1 });
    expect(recorder.version).toBe(1);
    await recorder.emit(...bodies(RUN.slice(0, 3)));
    expect((await readJournal(dir)).events.map((e) => e.v)).toEqual([1, 1, 1]);
  });
});

describe('kill points on the journal', () => {
  /** Runs the journal through a recorder killed (here: a thrown marker) at `spec`; what was on disk then. */
  async function killAt(spec: string, events: readonly RunEvent[] = RUN) {
    const dir = await mkdtemp(join(tmp(), 'run-'));
    const killPoint = createKillPoint(spec, () => {
      throw new Error('killed');
    });
    const recorder = createRunRecorder(dir, [], now, killPoint ? { killPoint } : {});
    for (const body of bodies(events)) {
      try {
        await recorder.emit(body);
      } catch {
        const journal = await readJournal(dir);
        const results = existsSync(runPaths(dir).results)
          ? await readFile(runPaths(dir).results, 'utf8')
          : '';
        return { last: journal.events.at(-1), rows: results.trim().split('\n').length - 1, body };
      }
    }
    return undefined;
  }

  it('cuts `finished` after the iteration is journaled, before results.tsv has its row', async () => {
    expect(await killAt('finished:2')).toMatchObject({
      last: { type: 'iteration_finished', iteration: 1 },
      rows: 1,
    });
  });

  it('cuts `recorded` and `decided` once results.tsv has the row', async () => {
    expect(await killAt('recorded:2')).toMatchObject({
      last: { type: 'iteration_finished', iteration: 1 },
      rows: 2,
    });
    // The second decision is iteration 2's (iteration 1's commit is not one).
    expect(await killAt('decided:2')).toMatchObject({
      last: { type: 'iteration_finished', iteration: 2 },
      rows: 3,
    });
  });

  it('cuts `committed` with the commit made and not journaled, and `started` before the start is', async () => {
    expect(await killAt('committed:1')).toMatchObject({
      last: { type: 'iteration_finished', iteration: 1 },
      body: { type: 'commit' },
    });
    expect(await killAt('started:1')).toMatchObject({ last: undefined, body: { type: 'run_started' } });
  });

  it('counts the baseline’s start apart from the iterations’ starts', async () => {
    const events = new JournalBuilder().start().baseline([0.5]).begin(1, 'mutating').events;
    expect(events.filter((e) => e.type === 'iteration_started')).toHaveLength(2);
    expect(await killAt('iteration_started:1', events)).toMatchObject({
      last: { type: 'iteration_started', iteration: 1 },
    });
  });

  it('reaches by name only the points that journal nothing', () => {
    const kills: string[] = [];
    const killPoint = createKillPoint('proposed:2', () => kills.push('proposed'));
    killPoint?.reach('proposed');
    killPoint?.reach('finished');
    expect(kills).toEqual([]);
    killPoint?.reach('proposed');
    expect(kills).toEqual(['proposed']);
    const riding = createKillPoint('finished:1', () => kills.push('finished'));
    riding?.reach('finished');
    expect(kills).toEqual(['proposed']);
  });
});
