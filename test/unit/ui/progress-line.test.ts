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
    expect(lines[7]).toMatch(/^ {2}next +autoresearch show 20261129-2230-cold-email-k3f9$/);
    expect(lines).toHaveLength(8);
  });

  it('ends with the next commands: diff and apply once a change was kept, resume while budget can grow', () => {
    const next = (over: Partial<RunSummary>) =>
      formatRunSummary({ ...summary, ...over }, plain)
        .split('\n')
        .slice(-4)
        .map((line) => line.trim())
        .filter((line) => line.includes('autoresearch '))
        .map((line) => line.replace(/^next +/, ''));
    const id = summary.runId;
    expect(next({ improved: true, stop: { reason: 'iterations', message: '12 of 12' } })).toEqual([
      `autoresearch show ${id}`,
      `autoresearch diff ${id}`,
      `autoresearch apply ${id}`,
      `autoresearch resume ${id} --iterations +N`,
    ]);
    expect(next({ improved: false, stop: { reason: 'interrupted', message: 'Ctrl-C' } })).toEqual([
      `autoresearch show ${id}`,
      `autoresearch resume ${id}`,
    ]);
    expect(next({ improved: true, stop: { reason: 'target', message: 'reached 0.95' } })).toEqual([
      `autoresearch show ${id}`,
      `autoresearch diff ${id}`,
      `autoresearch apply ${id}`,
    ]);
  });

  it('says how many warnings the run gave and the first, which scrolled by while it ran', () => {
    const one = formatRunSummary({ ...summary, warnings: ['the judge is noisy'] }, plain);
    expect(one).toMatch(/\n {2}warnings +one while it ran: the judge is noisy\n/);
    const two = formatRunSummary({ ...summary, warnings: ['the judge is noisy', 'a case failed'] }, plain);
    expect(two).toMatch(/\n {2}warnings +2 while it ran; the first: the judge is noisy\n/);
    expect(formatRunSummary(summary, plain)).not.toContain('warnings');
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
