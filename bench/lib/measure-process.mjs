/**
 * Runs a command and measures it as a whole process tree: wall time, peak resident memory
 * summed over the process and all its descendants (sampled from /proc), and — when GNU time
 * is installed at /usr/bin/time — CPU time of the tree and the largest single process's peak
 * memory (`time -v`'s "Maximum resident set size", which is per process, not summed).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const GNU_TIME = '/usr/bin/time';
const PAGE_KIB = 4;

export function hasGnuTime() {
  return existsSync(GNU_TIME);
}

function readText(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** pid and every descendant, found through /proc/<pid>/task/<tid>/children. */
export function processTree(root) {
  const seen = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift();
    seen.push(pid);
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      const children = readText(`/proc/${pid}/task/${tid}/children`);
      if (children === undefined) continue;
      for (const child of children.trim().split(/\s+/)) if (child !== '') queue.push(Number(child));
    }
  }
  return seen;
}

/** Resident memory of one process in KiB (0 once it is gone). */
export function residentKib(pid) {
  const statm = readText(`/proc/${pid}/statm`);
  if (statm === undefined) return 0;
  return Number(statm.split(' ')[1] ?? 0) * PAGE_KIB;
}

/** Samples the tree under `pid` every `intervalMs` until stopped; returns the peak sum in KiB. */
export function sampleTreeMemory(pid, intervalMs = 25) {
  let peak = 0;
  let samples = 0;
  const sample = () => {
    const total = processTree(pid).reduce((kib, p) => kib + residentKib(p), 0);
    peak = Math.max(peak, total);
    samples += 1;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return { peakKib: peak, samples };
    },
  };
}

/**
 * Runs argv[0] with argv[1..] and returns { code, signal, wallMs, peakTreeKib, cpuMs,
 * largestProcessKib, stdout, stderr }. `cpuMs` and `largestProcessKib` are NaN without GNU time.
 */
export async function runMeasured(argv, options = {}) {
  const useTime = options.gnuTime !== false && hasGnuTime();
  const dir = useTime ? mkdtempSync(join(tmpdir(), 'bench-time-')) : undefined;
  const timeFile = dir === undefined ? undefined : join(dir, 'time.txt');
  const command = useTime ? [GNU_TIME, '-f', '%e %U %S %M', '-o', timeFile, ...argv] : argv;
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const sampler = sampleTreeMemory(child.pid, options.sampleMs ?? 25);
  if (options.input !== undefined) child.stdin.end(options.input);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer =
    options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  const { code, signal } = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c, s) => resolve({ code: c, signal: s }));
  });
  const wallMs = performance.now() - started;
  if (timer) clearTimeout(timer);
  const { peakKib } = sampler.stop();
  let cpuMs = NaN;
  let largestProcessKib = NaN;
  if (timeFile !== undefined) {
    const line = (readText(timeFile) ?? '').trim().split('\n').at(-1) ?? '';
    const [, user, sys, maxKib] = line.split(' ').map(Number);
    if (Number.isFinite(user) && Number.isFinite(sys)) cpuMs = (user + sys) * 1000;
    if (Number.isFinite(maxKib)) largestProcessKib = maxKib;
    rmSync(dir, { recursive: true, force: true });
  }
  return { code, signal, wallMs, peakTreeKib: peakKib, cpuMs, largestProcessKib, stdout, stderr };
}
