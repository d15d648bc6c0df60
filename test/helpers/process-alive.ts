/**
 * Whether a process is still running, for tests that check nothing outlived its evaluation.
 * A killed process whose parent is gone may linger as a zombie when PID 1 does not reap
 * (containers): a zombie has exited and counts as gone.
 */
import { readFileSync } from 'node:fs';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return process.platform !== 'linux';
  }
}
