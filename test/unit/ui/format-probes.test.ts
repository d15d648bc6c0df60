import { describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../../src/calibrate/probe-result.js';
import { formatProbeLines } from '../../../src/ui/format-probes.js';

describe('formatProbeLines', () => {
  it('prints one line per probe: its name, its verdict and the judge runs it took', () => {
    const results: ProbeResult[] = [
      {
        probe: 'order',
        applicable: false,
        estimate: null,
        interval: null,
        biased: null,
        verdict: 'not applicable: one output per call',
        calls: 0,
      },
      {
        probe: 'length',
        applicable: true,
        estimate: 0,
        interval: [0, 0],
        biased: false,
        verdict: 'no length bias',
        calls: 2,
      },
      {
        probe: 'repeat',
        applicable: true,
        estimate: 1,
        interval: [0.76, 1],
        biased: false,
        verdict: 'consistent',
        calls: 1,
      },
    ];
    expect(formatProbeLines(results)).toEqual([
      'order   not applicable: one output per call',
      'length  no length bias (2 judge runs)',
      'repeat  consistent (1 judge run)',
    ]);
  });
});
