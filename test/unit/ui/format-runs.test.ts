import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { reduceRun } from '../../../src/run/reducer.js';
import type { RunSummary } from '../../../src/run/run-summary.js';
import { formatLocalMinute, formatRunsTable, formatUsd } from '../../../src/ui/format-runs.js';

const plain = pc.createColors(false);

function summary(partial: Partial<RunSummary>): RunSummary {
  return {
    id: '20261129-2230-cold-email-k3f9',
    dir: '/runs/20261129-2230-cold-email-k3f9',
    kind: 'run',
    experiment: 'cold-email',
    status: 'finished',
    simulated: [],
    iterations: 12,
    baseline: 0.6123,
    best: 0.7449,
    costUsd: 1.234,
    pool: null,
    ledger: reduceRun([]).spend,
    calibration: null,
    startedAt: '2026-11-29T22:30:00.000Z',
    stopReason: 'patience',
    stopMessage: 'no improvement in 10 iterations',
    holder: null,
    problems: [],
    ...partial,
  };
}

const runs: RunSummary[] = [
  summary({
    id: '20261130-0100-faq-bot-zz01',
    experiment: 'faq-bot',
    status: 'running',
    stopReason: null,
    holder: { pid: 4321, host: 'box' },
    simulated: ['generator'],
  }),
  summary({}),
  summary({
    id: '20261128-0900-cold-email-a000',
    status: 'crashed',
    stopReason: null,
    best: null,
    baseline: null,
    iterations: 0,
    costUsd: 0.001,
  }),
  summary({
    id: '20261127-0900-cold-email-b000',
    status: 'stopped',
    stopReason: 'stop_requested',
    problems: ['manifest.json is missing'],
  }),
];

describe('formatRunsTable', () => {
  it('shows every column when there is room', () => {
    const lines = formatRunsTable(runs, { width: 200, colors: plain, runsDir: '/runs' }).split('\n');
    expect(lines[0]).toMatch(
      /^RUN\s+KIND\s+EXPERIMENT\s+STATUS\s+ITERS\s+BASELINE -> BEST\s+COST\s+STARTED\s+STOP$/,
    );
    expect(lines[1]).toContain('0.612 -> 0.745 (sim)');
    expect(lines[1]).toContain('running');
    expect(lines[1]).toContain('pid 4321 on box');
    expect(lines[2]).toContain('0.612 -> 0.745');
    expect(lines[2]).toContain('$1.23');
    expect(lines[2]).toContain(formatLocalMinute('2026-11-29T22:30:00.000Z'));
    expect(lines[2]).toMatch(/patience$/);
    expect(lines[3]).toContain('- -> -');
    expect(lines[3]).toContain('<$0.01');
    expect(lines[3]).toContain('crashed');
    expect(lines[4]).toMatch(/stop requested$/);
    expect(lines[5]).toBe('! 20261127-0900-cold-email-b000: manifest.json is missing');
  });

  it('fits narrow terminals by shortening and dropping columns, never the id', () => {
    for (const width of [120, 100, 80, 64]) {
      const text = formatRunsTable(runs, { width, colors: plain, runsDir: '/runs' });
      const rows = text.split('\n').filter((line) => !line.startsWith('!'));
      for (const row of rows) expect(row.length).toBeLessThanOrEqual(width);
      expect(text).toContain('20261130-0100-faq-bot-zz01');
      expect(text).toContain('crashed');
    }
    const narrow = formatRunsTable(runs, { width: 80, colors: plain, runsDir: '/runs' });
    expect(narrow).not.toContain('STARTED  ');
    // Nothing disappears without a word.
    expect(narrow).toMatch(
      /\(not shown at this width: KIND, EXPERIMENT, STARTED, STOP; widen the terminal or\s+use --json\)$/,
    );
    expect(narrow.split('\n')[0]).toMatch(/^RUN\s+STATUS\s+ITERS\s+BASELINE -> BEST\s+COST$/);
    const narrowest = formatRunsTable(runs, { width: 64, colors: plain, runsDir: '/runs' });
    expect(narrowest.split('\n')[0]).toMatch(/^RUN\s+STATUS\s+BASELINE -> BEST$/);
    expect(narrowest).toContain('(sim)');
  });

  it('colours the status without breaking the alignment', () => {
    const colors = pc.createColors(true);
    const text = formatRunsTable(runs, { width: 200, colors, runsDir: '/runs' });
    expect(text).toContain(colors.red('crashed '));
    const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
    expect(strip(text)).toBe(formatRunsTable(runs, { width: 200, colors: plain, runsDir: '/runs' }));
  });

  it('says where it looked when there are no runs', () => {
    expect(formatRunsTable([], { width: 80, colors: plain, runsDir: '/x/runs' })).toMatch(
      /^No runs in \/x\/runs\./,
    );
  });
});

describe('formatUsd', () => {
  it('rounds to cents and marks tiny amounts', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.004)).toBe('<$0.01');
    expect(formatUsd(12.345)).toBe('$12.35');
  });
});

describe('a calibrate run', () => {
  it('shows its lowest kappa where a run shows baseline -> best', () => {
    const table = formatRunsTable(
      [
        summary({
          id: '20261201-1830-cold-email-7kq2',
          kind: 'calibrate',
          iterations: 0,
          baseline: null,
          best: null,
          stopReason: 'completed',
          simulated: ['judge'],
          calibration: { labels: 16, lowestKappa: { criterion: 'clarity', kappa: 0.4123 } },
        }),
        summary({
          id: '20261201-1831-cold-email-aaaa',
          kind: 'calibrate',
          calibration: { labels: 3, lowestKappa: null },
        }),
      ],
      { width: 200, colors: plain, runsDir: '/runs' },
    );
    expect(table).toMatch(
      /20261201-1830-cold-email-7kq2 +calibrate +cold-email +finished +- +min kappa 0\.41 \(clarity\) \(sim\)/,
    );
    expect(table).toContain('kappa n/a, 3 labels');
  });
});
