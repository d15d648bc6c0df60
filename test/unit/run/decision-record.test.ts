/**
 * decision.json and mutation.json hold exactly what their schemas describe
 * (src/run/decision-record.ts, src/run/mutation-record.ts): every file a greedy (margin and
 * paired) and a pareto loop writes parses with one of the known searches' shapes, and parsing
 * drops no field, so the report reads them with the writers' own schemas.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDecision, parseMutation } from '../../../src/report/artifact-schemas.js';
import { KnownDecision } from '../../../src/run/decision-record.js';
import { KnownMutation } from '../../../src/run/mutation-record.js';
import { iterationPaths } from '../../../src/run/paths.js';
import { cleanUpScriptedRuns, promptWith, runScripted, statusesOf } from '../../helpers/loop-harness.js';
import { mutatorScript } from '../../helpers/scripted-provider.js';

afterAll(cleanUpScriptedRuns);

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8'));
}

/** Every iteration's files, checked against the known shapes; returns the decisions' statuses. */
async function checkRecords(runDir: string, iterations: number): Promise<string[]> {
  const statuses: string[] = [];
  for (let iteration = 0; iteration < iterations; iteration++) {
    const paths = iterationPaths(runDir, iteration);
    const decision = await readJson(paths.decision);
    expect(KnownDecision.parse(decision)).toEqual(decision);
    expect(parseDecision(decision)).not.toBeNull();
    statuses.push(KnownDecision.parse(decision).status);
    if (iteration === 0) continue;
    const mutation = await readJson(paths.mutation);
    expect(KnownMutation.parse(mutation)).toEqual(mutation);
    expect(parseMutation(mutation)?.length).toBeGreaterThan(0);
  }
  return statuses;
}

const replies = [
  { hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo']) },
  { hypothesis: 'Swap bravo for zulu.', prompt: promptWith(['alpha', 'zulu']) },
  { hypothesis: 'Add charlie.', prompt: promptWith(['alpha', 'bravo', 'charlie']) },
  { hypothesis: 'Add delta.', prompt: promptWith(['alpha', 'bravo', 'delta']) },
];

describe('decision.json and mutation.json against their schemas', () => {
  it('greedy under the margin rule', async () => {
    const run = await runScripted({ mutator: mutatorScript(replies), budget: { iterations: 2 } });
    expect(await checkRecords(run.runDir, 3)).toEqual(statusesOf(run));
  });

  it('greedy under paired acceptance, with a screen', async () => {
    const run = await runScripted({
      mutator: mutatorScript(replies),
      search: {
        strategy: 'greedy',
        acceptance: 'paired',
        min_effect: 0.01,
        confidence: 0.9,
        retest: 1,
        minibatch: 1,
      },
      budget: { iterations: 2 },
    });
    expect(await checkRecords(run.runDir, 3)).toEqual(statusesOf(run));
  });

  it('pareto', async () => {
    const run = await runScripted({
      mutator: mutatorScript(replies),
      search: {
        strategy: 'pareto',
        acceptance: 'paired',
        min_effect: 0.01,
        confidence: 0.9,
        retest: 1,
        candidates: 2,
        merge_every: 100,
      },
      budget: { iterations: 2 },
    });
    expect(await checkRecords(run.runDir, 3)).toEqual(statusesOf(run));
  });
});
