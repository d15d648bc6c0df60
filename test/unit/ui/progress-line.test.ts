import { describe, expect, it } from 'vitest';
import { formatRunSummary, type ProgressColors, type RunSummary } from '../../../src/ui/progress-line.js';

const plain: ProgressColors = { green: id, red: id, yellow: id, cyan: id, dim: id, bold: id };

function id(text: string): string {
  return text;
}

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
