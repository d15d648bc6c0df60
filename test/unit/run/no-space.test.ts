/**
 * Regression: a full disk printed "internal error … this is a bug". ENOSPC (and EDQUOT) is a
 * clear "no space left on device (<path>)" error with exit 1, and the run resumes once space
 * is back. The disk is never filled: a tiny wrapper around node:fs/promises makes the journal's
 * writes fail part-way while `full` is set.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXIT } from '../../../src/errors.js';
import { noSpaceError } from '../../../src/no-space.js';
import { appendEvents, readJournal } from '../../../src/run/journal.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { JournalBuilder } from '../../fixtures/runs/journal-builder.js';

const disk = vi.hoisted(() => ({ full: false }));

function systemError(code: string, syscall: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: no space left on device, ${syscall}`), {
    code,
    syscall,
    errno: -28,
  });
}

// A full disk as the journal meets it: a write lands a few bytes of its line, then fails.
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof fs.open = async (...args) => {
    const handle = await fs.open(...args);
    const write = handle.write.bind(handle) as (
      buffer: Buffer,
      offset: number,
      length: number,
    ) => Promise<unknown>;
    return Object.assign(handle, {
      write: async (buffer: Buffer, offset = 0, length = buffer.length - offset) => {
        if (!disk.full) return write(buffer, offset, length);
        await write(buffer, offset, Math.min(length, 7));
        throw systemError('ENOSPC', 'write');
      },
    });
  };
  return { ...fs, open, default: { ...fs, open } };
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ar-no-space-'));
});
afterEach(async () => {
  disk.full = false;
  await rm(dir, { recursive: true, force: true });
});

describe('a full disk', () => {
  it('is a clear "no space left on device (<path>)" error with exit 1, not an internal error', () => {
    const error = Object.assign(systemError('ENOSPC', 'open'), { path: '/runs/x/events.jsonl' });
    const mapped = noSpaceError(new Error('writing the record failed', { cause: error }));
    expect(mapped).toMatchObject({
      code: 'E_NO_SPACE',
      message: 'no space left on device (/runs/x/events.jsonl)',
    });
    expect(mapped?.exitCode).toBe(EXIT.failure);
    expect(mapped?.hint).toMatch(/free some space.*autoresearch resume/);
    expect(noSpaceError(systemError('EDQUOT', 'write'))?.message).toBe('disk quota exceeded');
    expect(noSpaceError(new Error('something else'))).toBeUndefined();
    expect(noSpaceError(systemError('EACCES', 'open'))).toBeUndefined();
  });

  it('names the journal it could not append to, and the run resumes once space is back', async () => {
    const events = new JournalBuilder()
      .start()
      .baseline([0.5])
      .begin(1)
      .iteration(1, { status: 'discard' }).events;
    const split = events.findIndex((e) => e.type === 'iteration_started' && e.iteration === 1);
    await appendEvents(dir, events.slice(0, split + 1));

    disk.full = true;
    const failure = await appendEvents(dir, events.slice(split + 1)).catch((error: unknown) => error);
    expect(noSpaceError(failure)?.message).toBe(`no space left on device (${join(dir, 'events.jsonl')})`);
    // What a resume reads meanwhile: the half-written line is ignored, the iteration is open.
    const during = await readJournal(dir);
    expect(during.tornTail).toBe(true);
    expect(during.events).toHaveLength(split + 1);
    expect(reduceRun(during.events)).toMatchObject({ journalStatus: 'open', open: { iteration: 1 } });

    disk.full = false;
    await appendEvents(dir, events.slice(split + 1));
    const after = await readJournal(dir);
    expect(after).toMatchObject({ tornTail: false, invalidLines: [] });
    expect(after.events).toEqual(events);
    expect(reduceRun(after.events).completedIterations).toBe(1);
  });
});
