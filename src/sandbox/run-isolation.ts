/**
 * The isolation one run's judge and grader get (docs/design/isolation.md), from its experiment:
 * what `validate` says, what a run warns about at start, and what the sandboxed review uses.
 * A run that asked for `os` where bubblewrap cannot work is refused, never downgraded.
 */
import { AutoresearchError } from '../errors.js';
import { judgeMembers } from '../experiment/judge-panel.js';
import { isProgramEntry } from '../experiment/program-entry.js';
import type { Experiment } from '../experiment/types.js';
import {
  type BwrapProbe,
  chooseIsolation,
  describeIsolation,
  type Isolation,
  systemBwrapProbe,
} from './isolation.js';
import { isCliAgentCommand } from './sandbox-env.js';

/** Whether the experiment runs a judge or grader program at all. */
function reviews(experiment: Experiment): boolean {
  return experiment.models.judge !== undefined || experiment.models.grader !== undefined;
}

function usesCliAgent(experiment: Experiment): boolean {
  const { judge, grader } = experiment.models;
  return [
    ...(judge === undefined ? [] : judgeMembers(judge)),
    ...(grader === undefined ? [] : [grader]),
  ].some((entry) => isProgramEntry(entry) && isCliAgentCommand(entry.command));
}

export function runIsolation(experiment: Experiment, probe: BwrapProbe = systemBwrapProbe): Isolation {
  const choice = chooseIsolation(experiment.config.judging?.isolation, probe);
  if (choice.ok) return choice.isolation;
  throw new AutoresearchError('E_CONFIG', choice.message, {
    hint: 'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap), or set `judging: { isolation: process }`',
  });
}

/** The warning a run prints at start when it falls back to `process`; undefined otherwise. */
export function isolationWarning(
  experiment: Experiment,
  probe: BwrapProbe = systemBwrapProbe,
): string | undefined {
  if (!reviews(experiment)) return undefined;
  const choice = chooseIsolation(experiment.config.judging?.isolation, probe);
  return choice.ok ? choice.warning : undefined;
}

/** `validate`'s line for the judge and grader: which isolation the run gets, or why it would be refused. */
export function isolationNote(
  experiment: Experiment,
  probe: BwrapProbe = systemBwrapProbe,
): string | undefined {
  if (!reviews(experiment)) return undefined;
  const choice = chooseIsolation(experiment.config.judging?.isolation, probe);
  if (!choice.ok) return `refused: ${choice.message}`;
  const line = describeIsolation(choice.isolation, usesCliAgent(experiment));
  return choice.warning === undefined ? line : `${line}; ${choice.warning}`;
}
