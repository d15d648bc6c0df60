/** What the figures were measured on: CPUs, memory, Node, and how busy the machine was. */
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

function nproc() {
  try {
    return Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    return availableParallelism();
  }
}

export function describeMachine() {
  const model = cpus()[0]?.model?.trim() ?? 'unknown CPU';
  return {
    nproc: nproc(),
    cpuModel: model,
    memoryGiB: totalmem() / 1024 ** 3,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

/** The 1-minute load average: above nproc, other work was competing for the CPUs. */
export function loadAverage() {
  return loadavg()[0] ?? NaN;
}

export function machineLine(machine = describeMachine()) {
  return `${machine.nproc} CPUs (${machine.cpuModel}), ${machine.memoryGiB.toFixed(1)} GiB memory, Node ${machine.node}, ${machine.platform}`;
}
