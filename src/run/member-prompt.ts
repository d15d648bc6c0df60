/**
 * A pool member's prompt (docs/design/pareto-search.md): the prompt.md of the candidate it was,
 * checked against the hash its `pool_member` event journaled, so git (pool refs) and `apply` never
 * take a prompt.md that was edited or lost after the member entered the pool.
 */
import { readFile } from 'node:fs/promises';
import { AutoresearchError } from '../errors.js';
import { hashPrompt } from '../prompt-hash.js';
import { isErrno } from './errno.js';
import { candidatePaths } from './paths.js';

export async function readMemberPrompt(
  runDir: string,
  member: { id: string; iteration: number; candidate: number; promptSha256: string },
): Promise<string> {
  const file = candidatePaths(runDir, member.iteration, member.candidate).prompt;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw error;
    throw new AutoresearchError(
      'E_RUN_RECORD',
      `${file} does not exist: pool member ${member.id} has no prompt`,
      {
        hint: 'the run folder lost a candidate\u2019s files',
      },
    );
  }
  if (hashPrompt(text) !== member.promptSha256) {
    throw new AutoresearchError(
      'E_RUN_RECORD',
      `${file} is not the prompt pool member ${member.id} was journaled with (sha256 differs)`,
      {
        hint: 'the candidate\u2019s prompt.md was edited after it was evaluated; restore it from the run branch or a backup',
      },
    );
  }
  return text;
}
