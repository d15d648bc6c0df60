import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendEvents, readJournal } from '../../../src/run/journal.js';
import { writeBest, writeResultsTsv } from '../../../src/run/records.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { RESULTS_COLUMNS, escapeCell, formatResultsTsv } from '../../../src/run/results-tsv.js';
import { JournalBuilder } from '../../fixtures/runs/journal-builder.js';
import { planPoolRun } from '../../helpers/fixture-pool.js';

const SHA = 'abcdef0123456789abcdef0123456789abcdef01';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ar-results-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function parseTsv(text: string): Record<string, string>[] {
  const [header, ...rows] = text.trimEnd().split('\n');
  const columns = header!.split('\t');
  return rows.map((row) => Object.fromEntries(row.split('\t').map((cell, i) => [columns[i], cell])));
}

describe('results.tsv', () => {
  it('has exactly the columns of docs/design/run-records.md', () => {
    const text = formatResultsTsv(reduceRun([]));
    expect(text).toBe(
      'iteration\tcandidate\tparents\tmember\tcommit\tscore\tbest\tdelta\tdelta_lo\tdelta_hi\tn_cases\tchecks\tjudge\texpectations\tholdout\tstatus\tcost_usd\tseconds\thypothesis\n',
    );
    expect(RESULTS_COLUMNS).toHaveLength(19);
  });

  it('agrees with the journal it was derived from', async () => {
    const events = new JournalBuilder()
      .start()
      .baseline([0.6, 0.62])
      .iteration(1, {
        status: 'keep',
        train: 0.7,
        holdout: 0.65,
        commit: SHA,
        hypothesis: 'cut\tthe\nfluff',
        seconds: 41.6,
      })
      .iteration(2, { status: 'discard', train: 0.68, costUsd: 0.125 })
      .iteration(3, { status: 'error', errorKind: 'provider_error' }).events;
    await appendEvents(dir, events);
    const state = reduceRun((await readJournal(dir)).events);
    await writeResultsTsv(dir, state);
    const rows = parseTsv(await readFile(join(dir, 'results.tsv'), 'utf8'));
    expect(rows).toHaveLength(state.iterations.length);
    expect(rows[0]).toMatchObject({
      iteration: '0',
      commit: '',
      score: '0.6100',
      best: '0.6100',
      delta: '',
      status: 'baseline',
    });
    expect(rows[1]).toEqual({
      iteration: '1',
      candidate: '0',
      parents: '',
      member: '',
      commit: 'abcdef0',
      score: '0.7000',
      best: '0.7000',
      delta: '+0.0900',
      delta_lo: '',
      delta_hi: '',
      n_cases: '',
      checks: '0.7000',
      judge: '0.7000',
      expectations: '',
      holdout: '0.6500',
      status: 'keep',
      cost_usd: '0.0200',
      seconds: '42',
      hypothesis: 'cut\\tthe\\nfluff',
    });
    expect(rows[2]).toMatchObject({
      delta: '-0.0200',
      best: '0.7000',
      status: 'discard',
      cost_usd: '0.1250',
    });
    expect(rows[3]).toMatchObject({ score: '', holdout: '', status: 'error' });
    for (const [i, row] of rows.entries()) {
      const record = state.iterations[i]!;
      expect(Number(row['iteration'])).toBe(record.iteration);
      expect(row['status']).toBe(record.status);
      if (record.train !== null) expect(Number(row['score'])).toBeCloseTo(record.train, 4);
    }
  });

  it('lays a pareto run out in the same columns, one row per candidate with its lineage', () => {
    const text = formatResultsTsv(reduceRun(planPoolRun().events));
    expect(text.split('\n')[0]).toBe(RESULTS_COLUMNS.join('\t'));
    const rows = parseTsv(text);
    expect(rows.map((r) => [r['iteration'], r['candidate'], r['parents'], r['member'], r['status']])).toEqual(
      [
        ['0', '0', '', 'p0', 'baseline'],
        ['1', '0', 'p0', 'p1', 'keep'],
        ['1', '1', 'p0', '', 'discard'],
        ['2', '0', 'p0', 'p2', 'pooled'],
        ['2', '1', 'p1', '', 'screened_out'],
        ['3', '0', 'p2', 'p3', 'pooled'],
        ['3', '1', 'p1', '', 'inconclusive'],
        ['4', '0', 'p1+p3', 'p4', 'keep'],
        ['5', '0', 'p4', '', 'discard'],
        ['5', '1', 'p3', '', 'error'],
      ],
    );
  });

  it('escapes tabs, newlines, carriage returns and backslashes in cells', () => {
    expect(escapeCell('a\tb\nc\r\\d')).toBe('a\\tb\\nc\\r\\\\d');
    // A model's hypothesis with an escape sequence (a window title) is shown, not obeyed.
    expect(escapeCell('x\u001b]0;owned\u0007y')).toBe('x\\u001b]0;owned\\u0007y');
  });

  it('writes files atomically, leaving no temporary files behind', async () => {
    await writeBest(dir, 'Write a subject line.\n');
    await writeBest(dir, 'Write a better subject line.\n');
    expect(await readFile(join(dir, 'best.md'), 'utf8')).toBe('Write a better subject line.\n');
    expect(await readdir(dir)).toEqual(['best.md']);
  });
});
