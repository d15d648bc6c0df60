/**
 * The prompt a command takes from a finished or running run: its best, or a pareto run's pool
 * member (docs/design/pareto-search.md). `apply` writes it into the working tree; `run --from`
 * starts a new run from it.
 */
import { readFile } from 'node:fs/promises';
import { AutoresearchError } from '../errors.js';
import { locateMember } from '../report/prompt-refs.js';
import { readMemberPrompt } from './member-prompt.js';
import { candidatePaths, runPaths } from './paths.js';
import type { RunState } from './run-state.js';

export interface Chosen {
  /** `the best prompt`, `pool member p3`. */
  name: string;
  /** `the baseline`, `iteration 4`. */
  from: string;
  /** The iteration that produced it. */
  iteration: number;
  train: number | null;
  text: string;
}

export async function readBest(run: { id: string; dir: string }, state: RunState): Promise<Chosen> {
  const incumbent = state.incumbent;
  if (!incumbent) {
    throw new AutoresearchError('E_USAGE', `run ${run.id} has no evaluated prompt yet`, {
      hint: `resume it first: autoresearch resume ${run.id}`,
    });
  }
  const record = state.iterations.find((it) => it.iteration === incumbent.iteration);
  const text = await readFile(
    candidatePaths(run.dir, incumbent.iteration, record?.candidate ?? 0).prompt,
    'utf8',
  ).catch(() => readFile(runPaths(run.dir).best, 'utf8'));
  const from =
    incumbent.iteration === (state.baseline?.iteration ?? 0)
      ? 'the baseline'
      : `iteration ${incumbent.iteration}`;
  return { name: 'the best prompt', from, iteration: incumbent.iteration, train: incumbent.train, text };
}

export async function readMember(dir: string, state: RunState, name: string): Promise<Chosen> {
  const member = locateMember(state, name);
  const text = await readMemberPrompt(dir, member);
  const from = member.kind === 'seed' ? 'the baseline' : `iteration ${member.iteration}`;
  return { name: `pool member ${member.id}`, from, iteration: member.iteration, train: member.train, text };
}
