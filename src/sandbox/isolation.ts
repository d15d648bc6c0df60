/**
 * Which isolation a run's judge and grader get (docs/design/isolation.md): `os` (bubblewrap) or
 * `process` (version 1's: a child process with an allow-listed environment, same user, same machine
 * view). Unset, it is `os` where bubblewrap works and `process` elsewhere, with a warning saying
 * so; asked for explicitly, `os` without a working bubblewrap is an error, never a silent
 * downgrade.
 */
import { execFileSync } from 'node:child_process';
import type { Isolation } from '../experiment/schema.js';

export type { Isolation } from '../experiment/schema.js';

export const BWRAP = 'bwrap';

export type IsolationChoice =
  | { ok: true; isolation: Isolation; warning?: string }
  | { ok: false; message: string };

/** Undefined when bubblewrap can make a sandbox here; otherwise why not. */
export type BwrapProbe = () => string | undefined;

let probed: { problem: string | undefined } | undefined;

/**
 * Starts `bwrap … true` once per process: whether the binary is there is not enough, since
 * containers and some kernels refuse the user namespace it needs.
 */
export const systemBwrapProbe: BwrapProbe = () => {
  if (probed !== undefined) return probed.problem;
  probed = { problem: probeNow() };
  return probed.problem;
};

function probeNow(): string | undefined {
  if (process.platform !== 'linux') return `bubblewrap is Linux only (this is ${process.platform})`;
  try {
    execFileSync(
      BWRAP,
      ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '--new-session', 'true'],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 },
    );
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)';
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    return `bwrap cannot make a sandbox here${stderr === '' ? '' : `: ${stderr.split('\n')[0]}`}`;
  }
}

export function chooseIsolation(
  setting: Isolation | undefined,
  probe: BwrapProbe = systemBwrapProbe,
): IsolationChoice {
  if (setting === 'process') return { ok: true, isolation: 'process' };
  const problem = probe();
  if (problem === undefined) return { ok: true, isolation: 'os' };
  if (setting === 'os') {
    return { ok: false, message: `judging.isolation is os but ${problem}` };
  }
  return {
    ok: true,
    isolation: 'process',
    warning:
      `the judge and grader run with process isolation only (${problem}): they can read ` +
      'what your user can, including the runner’s environment through /proc; set ' +
      '`judging: { isolation: process }` to accept that and silence this warning',
  };
}

/** `validate`'s words for the isolation a run's judge and grader get. */
export function describeIsolation(isolation: Isolation, cliAgent: boolean): string {
  if (isolation === 'process') {
    return 'process (a child process with an allow-listed environment: it can read what your user can)';
  }
  if (cliAgent) {
    return 'os (bubblewrap), weaker for the claude/codex CLI: it gets a private copy of its login and the shared network';
  }
  return 'os (bubblewrap: no network but the model proxy, no view of the project, home or other processes)';
}
