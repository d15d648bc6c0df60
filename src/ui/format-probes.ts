/**
 * The lines `calibrate` prints for its bias probes (docs/design/judge-reliability.md): one per
 * probe, its name and its verdict in plain words, and how many judge runs it took. Pure; the
 * command adds colour and places them.
 */
import type { ProbeResult } from '../calibrate/probe-result.js';

/** 'length' and 'repeat', the longest names, and two spaces. */
const NAME_WIDTH = 8;

export function formatProbeLines(results: readonly ProbeResult[]): string[] {
  return results.map((result) => {
    const runs = result.calls === 0 ? '' : ` (${result.calls} judge run${result.calls === 1 ? '' : 's'})`;
    return `${result.probe.padEnd(NAME_WIDTH)}${result.verdict}${runs}`;
  });
}
