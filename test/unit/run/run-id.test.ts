import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRunId, resolveRunId } from '../../../src/run/run-id.js';

function randomOf(chars: string): () => number {
  const values = [...chars].map((ch) => (Number.parseInt(ch, 36) + 0.5) / 36);
  let i = 0;
  return () => values[i++ % values.length]!;
}

describe('createRunId', () => {
  it('is local yyyymmdd-hhmm, the experiment and four base-36 characters', () => {
    const now = new Date(2026, 10, 29, 22, 30, 59);
    expect(createRunId('cold-email', { now, random: randomOf('k3f9') })).toBe(
      '20261129-2230-cold-email-k3f9',
    );
    expect(createRunId('x', { now: new Date(2027, 0, 2, 3, 4), random: () => 0.999999 })).toBe(
      '20270102-0304-x-zzzz',
    );
  });
});

describe('resolveRunId', () => {
  let runs: string;
  const ids = ['20261129-2230-cold-email-k3f9', '20261129-2231-cold-email-a000', '20261130-0900-faq-zz01'];

  beforeEach(async () => {
    runs = await mkdtemp(join(tmpdir(), 'ar-runid-'));
    for (const id of ids) await mkdir(join(runs, id));
    await writeFile(join(runs, '.gitignore'), '*\n');
    await mkdir(join(runs, '.hidden'));
  });
  afterEach(async () => {
    await rm(runs, { recursive: true, force: true });
  });

  it('accepts an exact id or a unique prefix', async () => {
    await expect(resolveRunId(runs, ids[0]!)).resolves.toEqual({ id: ids[0], dir: join(runs, ids[0]!) });
    await expect(resolveRunId(runs, '20261130')).resolves.toMatchObject({ id: ids[2] });
    await expect(resolveRunId(runs, '20261129-2231')).resolves.toMatchObject({ id: ids[1] });
  });

  it('lists the candidates when a prefix is ambiguous', async () => {
    await expect(resolveRunId(runs, '20261129')).rejects.toMatchObject({
      code: 'E_USAGE',
      message: `"20261129" matches 2 runs: ${ids[0]}, ${ids[1]}`,
    });
  });

  it('says which runs exist when nothing matches', async () => {
    const error = await resolveRunId(runs, '2025').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'E_NOT_FOUND', message: `no run matches "2025" in ${runs}` });
    expect((error as { hint: string }).hint).toContain(ids[2]);
    await expect(resolveRunId(join(runs, 'missing'), 'x')).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
  });

  it('refuses paths and hidden names', async () => {
    await expect(resolveRunId(runs, '../x')).rejects.toMatchObject({ code: 'E_USAGE' });
    await expect(resolveRunId(runs, '.hidden')).rejects.toMatchObject({ code: 'E_USAGE' });
    await expect(resolveRunId(runs, '')).rejects.toMatchObject({ code: 'E_USAGE' });
  });
});
