/**
 * The evaluation.json files of a run that exist but cannot be read, for `show`: its table comes
 * from the journal, so without this a damaged record would only surface later, in a resume or a
 * report showing less.
 */
import { join } from 'node:path';
import { candidatePathsAt } from '../run/paths.js';
import { listNames, readJsonRecord } from './read-json-record.js';

export async function findDamagedEvaluations(runDir: string): Promise<string[]> {
  const problems: string[] = [];
  const iterations = join(runDir, 'iterations');
  const folders: string[] = [];
  for (const iteration of await listNames(iterations)) {
    const candidates = join(iterations, iteration, 'candidates');
    for (const candidate of await listNames(candidates)) folders.push(join(candidates, candidate));
  }
  for (const side of await listNames(join(runDir, 'final'))) folders.push(join(runDir, 'final', side));
  for (const folder of folders) await readJsonRecord(candidatePathsAt(folder).evaluation, problems);
  return problems;
}
