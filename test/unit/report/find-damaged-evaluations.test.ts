import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDamagedEvaluations } from '../../../src/report/find-damaged-evaluations.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('ar-damaged-evaluations-');

async function put(dir: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'evaluation.json');
  await writeFile(file, text);
  return file;
}

describe('findDamagedEvaluations', () => {
  it('names each evaluation.json that is cut short, empty or not JSON; whole and missing ones are fine', async () => {
    const run = tmp();
    const whole = JSON.stringify({ evaluation: { cases: [{ id: 'a', split: 'train' }] } });
    await put(join(run, 'iterations/0000/candidates/0'), whole);
    const halved = await put(join(run, 'iterations/0001/candidates/0'), whole.slice(0, whole.length / 2));
    await mkdir(join(run, 'iterations/0001/candidates/1'), { recursive: true });
    const empty = await put(join(run, 'final/best'), '');
    const garbage = await put(join(run, 'final/baseline'), '{"a": 1} trailing');
    expect(await findDamagedEvaluations(run)).toEqual([
      `${halved} is cut short (truncated after ${Math.floor(whole.length / 2)} characters), so its record cannot be read`,
      expect.stringMatching(
        new RegExp(
          `^${garbage.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid JSON \\(.+\\), so its record cannot be read$`,
        ),
      ),
      `${empty} is empty, so its record cannot be read`,
    ]);
  });
});
