/**
 * What a program may use under `os` isolation (docs/design/isolation.md "Limits"), from
 * `judging.limits`: memory per process, the private /tmp, and what it adds to its folder on disk.
 *
 * - memory: RLIMIT_DATA (the data segment, heap and private writable mappings) for every process
 *   in the sandbox. RLIMIT_AS would count the address space V8 and WebAssembly reserve without
 *   using it, and stop Node at start. A cgroup v2 memory.max would bound the sandbox as a whole,
 *   but needs a delegated cgroup with the memory controller, which many hosts (cgroup v1 memory,
 *   containers, no systemd user session) do not give: it is not used, so the bound is per process.
 * - /tmp: a tmpfs of that size; it is RAM, so it stays small.
 * - the folder: RLIMIT_FSIZE caps every file the program writes (a write past it fails with
 *   EFBIG, or SIGXFSZ ends the program), and a watcher of the folder's total (folder-size-watch.ts)
 *   stops the program when what it added passes the same size. A tmpfs there would hold the
 *   folder in RAM; a quota or a loop-mounted image needs privileges the runner may not have.
 *
 * The limits are set by util-linux's `prlimit`, which then becomes bubblewrap: every process of
 * the sandbox inherits them and none can raise them (soft and hard alike).
 */
import type { SandboxLimitsConfig } from '../experiment/schema.js';
import type { ProcessResult } from '../process/run-process.js';

export type SandboxLimits = Required<SandboxLimitsConfig>;

export const DEFAULT_LIMITS: SandboxLimits = { memory_mb: 2048, tmp_mb: 512, disk_mb: 1024 };

export const MB = 1024 * 1024;
export const PRLIMIT = 'prlimit';

export function resolveLimits(config: SandboxLimitsConfig | undefined): SandboxLimits {
  return { ...DEFAULT_LIMITS, ...config };
}

/** prlimit's options: soft and hard limit alike, so no process inside can raise them. */
export function rlimitOptions(limits: SandboxLimits): string[] {
  return [`--data=${limits.memory_mb * MB}`, `--fsize=${limits.disk_mb * MB}`];
}

/** 128 + SIGXFSZ: what bubblewrap reports for a program the file size limit ended. */
const KILLED_BY_SIGXFSZ = 153;

/**
 * Which limit a failed program likely ran into, from how it ended and what it said (the kernel
 * only says "no": EFBIG, ENOSPC, ENOMEM); undefined when nothing points at one.
 */
export function limitNote(result: ProcessResult, limits: SandboxLimits): string | undefined {
  const said = result.stderr;
  if (
    result.exitCode === KILLED_BY_SIGXFSZ ||
    result.signal === 'SIGXFSZ' ||
    /EFBIG|File too large|File size limit exceeded/.test(said)
  ) {
    return `a file reached the largest size allowed, judging.limits.disk_mb (${limits.disk_mb} MB)`;
  }
  if (/ENOSPC|No space left on device/.test(said)) {
    return `a disk filled up; its /tmp holds judging.limits.tmp_mb (${limits.tmp_mb} MB)`;
  }
  if (/out of memory|bad_alloc|Cannot allocate memory|ENOMEM|Allocation failed/i.test(said)) {
    return `it ran out of memory; each process may use judging.limits.memory_mb (${limits.memory_mb} MB)`;
  }
  return undefined;
}
