import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import {
  formatProgressLine,
  formatRunSummary,
  type IterationLine,
  type ProgressColors,
  type RunSummary,
} from '../../../src/ui/progress-line.js';
import { countChars } from '../../../src/loop/text.js';

const plain: ProgressColors = { green: id, red: id, yellow: id, cyan: id, dim: id, bold: id };
const tagged: ProgressColors = {
  green: (t) => `<green>${t}</green>`,
  red: (t) => `<red>${t}</red>`,
  yellow: (t) => `<yellow>${t}</yellow>`,
  cyan: (t) => `<cyan>${t}</cyan>`,
  dim: (t) => `<dim>${t}</dim>`,
  bold: (t) => `<bold>${t}</bold>`,
};

function id(text: string): string {
  return text;
}

const line: IterationLine = {
  iteration: 7,
  status: 'keep',
  score: 0.7684,
  best: 0.7684,
  delta: 0.0561,
  costUsd: 0.0421,
  seconds: 38.4,
  hypothesis: 'A hard word limit in the first line\nmakes the word-count check pass without hurting clarity.',
};

describe('formatProgressLine', () => {
  it('shows number, status, score, best, delta, cost, seconds and hypothesis', () => {
    const text = formatProgressLine(line, { width: 200, colors: plain });
    expect(text).toBe(
      '   7  keep          0.768  best 0.768  +0.056   $0.042     38s  A hard word limit in the first line makes the word-count check pass without hurting clarity.',
    );
  });

  it('cuts the hypothesis to fit the width, never the numbers', () => {
    for (const width of [62, 72, 80, 100, 120]) {
      const text = formatProgressLine(line, { width, colors: plain });
      expect(countChars(text)).toBeLessThanOrEqual(width);
      expect(text).toContain('+0.056');
    }
    expect(formatProgressLine(line, { width: 80, colors: plain }).endsWith('…')).toBe(true);
    const narrow = formatProgressLine(line, { width: 40, colors: plain });
    expect(narrow).toBe('   7  keep          0.768  best 0.768  +0.056   $0.042     38s');
    expect(formatProgressLine(line, { width: 71, colors: plain })).toBe(narrow);
    expect(formatProgressLine(line, { width: 72, colors: plain })).toBe(`${narrow}  A hard …`);
  });

  it('colours the status only, and measures width without the colour codes', () => {
    const text = formatProgressLine(line, { width: 80, colors: tagged });
    expect(text).toContain('<green>keep        </green>');
    expect(countChars(text.replace(/<\/?green>/g, ''))).toBeLessThanOrEqual(80);
    const statuses = {
      gate_fail: 'red',
      error: 'red',
      holdout_fail: 'yellow',
      discard: 'dim',
      baseline: 'cyan',
    };
    for (const [status, colour] of Object.entries(statuses))
      expect(
        formatProgressLine(
          { ...line, status: status as IterationLine['status'] },
          { width: 80, colors: tagged },
        ),
      ).toContain(`<${colour}>${status}`);
  });

  it('takes the terminal colours as they are', () => {
    const colors: ProgressColors = pc.createColors(false);
    expect(formatProgressLine(line, { width: 90, colors })).toBe(
      formatProgressLine(line, { width: 90, colors: plain }),
    );
  });

  it('shows missing scores, deltas and prices as such', () => {
    const text = formatProgressLine(
      { ...line, status: 'error', score: null, delta: null, costUsd: null, hypothesis: '' },
      { width: 100, colors: plain },
    );
    expect(text).toBe('   7  error             -  best 0.768       -       $?     38s');
    expect(formatProgressLine({ ...line, delta: -0.0123 }, { width: 100, colors: plain })).toContain(
      '-0.012',
    );
  });
});

describe('formatRunSummary', () => {
  const summary: RunSummary = {
    runId: '20261129-2230-cold-email-k3f9',
    final: { baseline: { train: 0.612, holdout: 0.59 }, best: { train: 0.768, holdout: 0.702 } },
    during: { baseline: { train: 0.615, holdout: 0.6 }, best: { train: 0.771, holdout: 0.71 } },
    counts: { baseline: 1, keep: 3, discard: 7, gate_fail: 1, duplicate: 1 },
    callsSaved: 0,
    totalCostUsd: 1.2345,
    stop: { reason: 'patience', message: '10 iterations in a row without a keep (patience 10)' },
    branch: 'autoresearch/cold-email/20261129-2230-cold-email-k3f9',
    reportPath: 'runs/20261129-2230-cold-email-k3f9/report.html',
    simulated: false,
  };

  it('leads with the fresh final figures, then the rest', () => {
    const lines = formatRunSummary(summary, plain).split('\n');
    expect(lines[0]).toBe(
      'Run 20261129-2230-cold-email-k3f9 stopped (patience): 10 iterations in a row without a keep (patience 10)',
    );
    expect(lines[1]).toContain('final check (fresh)');
    expect(lines[1]).toContain('train 0.612 → 0.768 (+0.156)   holdout 0.590 → 0.702 (+0.112)');
    expect(lines[2]).toContain('during the run');
    expect(lines[2]).toContain('train 0.615 → 0.771');
    expect(lines[3]).toContain('12: 3 keep, 7 discard, 1 gate_fail, 1 duplicate');
    expect(lines[4]).toContain('$1.23');
    expect(lines[5]).toContain(summary.branch);
    expect(lines[6]).toContain(summary.reportPath);
    expect(lines).toHaveLength(7);
  });

  it('leads the final check with the sealed test split when the experiment has one', () => {
    const final = {
      baseline: { train: 0.612, holdout: 0.59, test: 0.55 },
      best: { train: 0.768, holdout: 0.702, test: 0.641 },
    };
    const line = formatRunSummary({ ...summary, final }, plain).split('\n')[1];
    expect(line).toContain(
      'final check (fresh)   test 0.550 → 0.641 (+0.091)   train 0.612 → 0.768 (+0.156)   holdout 0.590 → 0.702 (+0.112)',
    );
    const failed = formatRunSummary(
      { ...summary, final: { ...final, best: { ...final.best, test: null } } },
      plain,
    ).split('\n')[1];
    expect(failed).toContain('test: no score   train 0.612');
  });

  it('labels simulated runs, and says when commits are off, the final check missing or holdout absent', () => {
    const text = formatRunSummary(
      {
        ...summary,
        simulated: true,
        branch: null,
        final: null,
        during: { baseline: { train: 0.5, holdout: null }, best: { train: 0.6, holdout: null } },
      },
      plain,
    );
    expect(text).toContain('simulated');
    expect(text).toContain('commits are off');
    expect(text).toContain('not run');
    expect(text).toContain('holdout: none');
  });

  it('counts the paired statuses and the calls screening saved', () => {
    const text = formatRunSummary(
      { ...summary, counts: { baseline: 1, keep: 1, inconclusive: 2, screened_out: 3 }, callsSaved: 42 },
      plain,
    );
    expect(text).toContain(
      'iterations            6: 1 keep, 2 inconclusive, 3 screened_out; screening saved 42 calls',
    );
  });
});
