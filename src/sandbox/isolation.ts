/**
 * Which isolation a run's judge and grader get (docs/design/isolation.md): `os` (bubblewrap) or
 * `process` (version 1's: a child process with an allow-listed environment, same user, same machine
 * view). Unset, it is `os` where bubblewrap works and `process` elsewhere, with a warning saying
 * so; asked for explicitly, `os` without a working bubblewrap is an error, never a silent
 * downgrade.
 */
import { execFileSync } from 'node:child_process';
import type { Isolation } from '../experiment/schema.js';
import { BWRAP, HARDENING } from './bwrap-argv.js';
import { DEFAULT_LIMITS, PRLIMIT, rlimitOptions } from './sandbox-limits.js';

export type { Isolation } from '../experiment/schema.js';

export type IsolationChoice =
  | { ok: true; isolation: Isolation; warning?: string }
  | { ok: false; message: string };

/** Undefined when bubblewrap can make a sandbox here; otherwise why not. */
export type BwrapProbe = () => string | undefined;

let probed: { problem: string | undefined } | undefined;

/**
 * Starts `prlimit … bwrap … true` once per process, with the hardening every sandbox gets:
 * whether the binary is there is not enough, since containers and some kernels refuse the user
 * namespace it needs, and a bubblewrap older than 0.8 lacks options it uses.
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
      PRLIMIT,
      [
        ...rlimitOptions(DEFAULT_LIMITS),
        '--',
        BWRAP,
        ...HARDENING,
        ...['--ro-bind', '/', '/', '--size', '1048576', '--tmpfs', '/tmp', 'true'],
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 },
    );
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'prlimit is not installed (it comes with util-linux)';
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    if (/prlimit: failed to execute bwrap/.test(stderr)) {
      return 'bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)';
    }
    const said = stderr.split('\n')[0] ?? '';
    // An older bubblewrap (Ubuntu 22.04 has 0.6) lacks --disable-userns and --size.
    const old = /Unknown option/.test(said) ? ' (bubblewrap 0.8 or newer is needed)' : '';
    return `bwrap cannot make a sandbox here${said === '' ? '' : `: ${said}`}${old}`;
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
