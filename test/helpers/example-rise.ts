/**
 * What a shipped example reaches offline, as its experiment.yaml header states it for the user:
 *
 *   # Under --provider sim the best train score rises 0.194 → 0.694 in 2 iterations.
 *
 * Tests that run the example under `--provider sim` read that line and hold the run to it, so the
 * example's own header never drifts from what the simulator does.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT } from './built-cli.js';

export interface StatedRise {
  baseline: number;
  best: number;
  iterations: number;
}

const RISE_LINE =
  /^# Under --provider sim the best train score rises (\d\.\d{3}) → (\d\.\d{3}) in (\d+) iterations?\b/m;

/** The rise stated in `experiments/<name>/experiment.yaml`; throws when the header has none. */
export async function readStatedRise(name: string): Promise<StatedRise> {
  const yaml = await readFile(join(REPO_ROOT, 'experiments', name, 'experiment.yaml'), 'utf8');
  const match = RISE_LINE.exec(yaml);
  if (!match)
    throw new Error(`experiments/${name}/experiment.yaml states no "Under --provider sim … rises" line`);
  return { baseline: Number(match[1]), best: Number(match[2]), iterations: Number(match[3]) };
}

/** results.tsv as rows of named columns. */
export function readResults(text: string): Record<string, string>[] {
  const [header, ...rows] = text.trimEnd().split('\n');
  const names = (header ?? '').split('\t');
  return rows.map((row) => Object.fromEntries(row.split('\t').map((cell, i) => [names[i], cell])));
}

/** The run's results.tsv shows the stated baseline, and the stated best after the stated iterations. */
export function expectStatedRise(rows: Record<string, string>[], stated: StatedRise, output = ''): void {
  expect(rows[0]?.['status']).toBe('baseline');
  expect(roundsTo(rows[0]?.['best'], stated.baseline), `baseline ${rows[0]?.['best']}\n${output}`).toBe(true);
  const reached = rows.filter((row) => Number(row['iteration']) <= stated.iterations).at(-1);
  expect(Number(reached?.['iteration']), output).toBe(stated.iterations);
  expect(roundsTo(reached?.['best'], stated.best), `best ${reached?.['best']}\n${output}`).toBe(true);
  expect(stated.best).toBeGreaterThan(stated.baseline);
}

/** results.tsv keeps four decimals; the header states three (0.9125 is stated 0.913). */
function roundsTo(cell: string | undefined, stated: number): boolean {
  return Math.abs(Number(cell) - stated) <= 0.00051;
}
