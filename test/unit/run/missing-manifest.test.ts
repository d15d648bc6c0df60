/**
 * Regression: a deleted `manifest.json` gave the hint "probably crashed before it started" for a
 * finished run. The hint says what the journal knows.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readManifest } from '../../../src/run/manifest.js';
import { hintFromJournal } from '../../../src/run/missing-manifest.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { JournalBuilder } from '../../fixtures/runs/journal-builder.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ar-missing-manifest-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const finished = () =>
  new JournalBuilder()
    .start()
    .baseline([0.5])
    .iteration(1, { status: 'discard' })
    .iteration(2, { status: 'keep' })
    .stop('iterations', '2 of 2 iterations done');

describe('the missing-manifest hint', () => {
  it('says the journal shows the run finished, and at which iteration', async () => {
    await writeFile(join(dir, 'events.jsonl'), finished().jsonl());
    const error = await readManifest(dir).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'E_NOT_FOUND' });
    const hint = (error as { hint: string }).hint;
    expect(hint).toMatch(
      /^the journal shows the run finished at iteration 2 \(2 of 2 iterations done\); manifest\.json was deleted or lost/,
    );
    expect(hint).not.toMatch(/crashed before it started/);
  });

  it('tells a stopped run and one cut short apart, and keeps the old hint without a journal', () => {
    const stopped = new JournalBuilder()
      .start()
      .baseline([0.5])
      .stop('stop_requested', 'stopped by `autoresearch stop`');
    expect(hintFromJournal(reduceRun(stopped.events))).toMatch(
      /^the journal shows the run stopped at iteration 0 \(stopped by/,
    );
    const open = new JournalBuilder().start().baseline([0.5]).begin(1);
    expect(hintFromJournal(reduceRun(open.events))).toMatch(
      /^the journal shows the run started and was last at iteration 1 \(running, or cut short\)/,
    );
    expect(hintFromJournal(undefined)).toBe(
      'the run folder is incomplete: the run probably crashed before it started',
    );
    expect(hintFromJournal(reduceRun([]))).toMatch(/crashed before it started/);
  });
});
