import { describe, expect, it } from 'vitest';
import {
  collapseToParagraph,
  formatBaselineMessage,
  formatKeepMessage,
  formatPoolMessage,
  formatRunBranch,
  formatScore,
} from '../../../src/git/commit-message.js';

describe('formatKeepMessage', () => {
  it('writes the docs/design/git-layout.md message exactly', () => {
    const message = formatKeepMessage({
      experiment: 'cold-email',
      runId: '20261129-2230-cold-email-k3f9',
      iteration: 7,
      from: 0.712,
      to: 0.768,
      hypothesis:
        'Leading with the reader\u2019s problem\n  raises relevance.\n\nIt also shortens the email.',
    });
    expect(message).toBe(
      [
        'autoresearch(cold-email): iter 7 0.712 -> 0.768 (+0.056)',
        '',
        'Leading with the reader\u2019s problem raises relevance. It also shortens the email.',
        '',
        'Autoresearch-Run: 20261129-2230-cold-email-k3f9',
        'Autoresearch-Iteration: 7',
        'Autoresearch-Score: 0.768',
        '',
      ].join('\n'),
    );
  });

  it('names the changed parts in one more trailer when several parts are optimised (docs/design/prompt-shapes.md)', () => {
    const message = formatKeepMessage({
      experiment: 'support-bot',
      runId: 'r',
      iteration: 2,
      from: 0.5,
      to: 0.6,
      hypothesis: 'h',
      parts: ['system', 'messages[1]'],
    });
    expect(message.split('\n').slice(-3)).toEqual([
      'Autoresearch-Score: 0.600',
      'Autoresearch-Parts: system, messages[1]',
      '',
    ]);
  });

  it('rounds to 3 decimals and keeps the delta consistent with the shown scores', () => {
    const subject = (from: number, to: number) =>
      formatKeepMessage({ experiment: 'x', runId: 'r', iteration: 1, from, to, hypothesis: 'h' }).split(
        '\n',
      )[0];
    expect(subject(0.71249, 0.76851)).toBe('autoresearch(x): iter 1 0.712 -> 0.769 (+0.057)');
    expect(subject(0.5, 0.4985)).toBe('autoresearch(x): iter 1 0.500 -> 0.499 (-0.001)');
    expect(subject(0.5, 0.5)).toBe('autoresearch(x): iter 1 0.500 -> 0.500 (+0.000)');
    expect(subject(0, 1)).toBe('autoresearch(x): iter 1 0.000 -> 1.000 (+1.000)');
  });

  it('names a missing hypothesis instead of leaving an empty paragraph', () => {
    const message = formatKeepMessage({
      experiment: 'x',
      runId: 'r',
      iteration: 2,
      from: 0,
      to: 0.1,
      hypothesis: ' \n ',
    });
    expect(message.split('\n')[2]).toBe('(no hypothesis stated)');
  });

  it('names the pool member of a pareto keep before the parts', () => {
    const message = formatKeepMessage({
      experiment: 'x',
      runId: 'r',
      iteration: 4,
      from: 0.5,
      to: 0.6,
      hypothesis: 'h',
      member: 'p7',
      parts: ['system'],
    });
    expect(message.split('\n').slice(-4)).toEqual([
      'Autoresearch-Score: 0.600',
      'Autoresearch-Pool: p7',
      'Autoresearch-Parts: system',
      '',
    ]);
  });
});

describe('helpers', () => {
  it('formats scores, branches and paragraphs', () => {
    expect(formatScore(0.1)).toBe('0.100');
    expect(formatScore(-0.25)).toBe('-0.250');
    expect(formatRunBranch('cold-email', '20261129-2230-cold-email-k3f9')).toBe(
      'autoresearch/cold-email/20261129-2230-cold-email-k3f9',
    );
    expect(collapseToParagraph('\ta\r\n\r\nb  c\n')).toBe('a b c');
  });

  it('writes the baseline message with iteration 0 and no score', () => {
    expect(formatBaselineMessage({ experiment: 'demo', runId: 'r1', reason: 'untracked' })).toBe(
      [
        'autoresearch(demo): baseline prompt for run r1',
        '',
        'The prompt was not in HEAD; this commit records the version the run starts from.',
        '',
        'Autoresearch-Run: r1',
        'Autoresearch-Iteration: 0',
        '',
      ].join('\n'),
    );
    expect(formatBaselineMessage({ experiment: 'demo', runId: 'r1', reason: 'modified' })).toContain(
      'differed from HEAD',
    );
  });
});

describe('formatPoolMessage', () => {
  const base = { experiment: 'x', runId: 'r', train: null, hypothesis: null } as const;

  it('says which member, made how, at which iteration', () => {
    expect(formatPoolMessage({ ...base, member: 'p0', iteration: 0, kind: 'seed', parents: [] })).toBe(
      [
        'autoresearch(x): pool p0, iter 0, the baseline',
        '',
        'The prompt the run started from.',
        '',
        'Autoresearch-Run: r',
        'Autoresearch-Iteration: 0',
        'Autoresearch-Pool: p0',
        '',
      ].join('\n'),
    );
    const merge = formatPoolMessage({
      ...base,
      member: 'p9',
      iteration: 10,
      kind: 'merge',
      parents: ['p2', 'p5'],
      train: 0.71249,
      hypothesis: 'Both\n\nlineages.',
    });
    expect(merge.split('\n')).toEqual([
      'autoresearch(x): pool p9, iter 10, merge of p2 and p5 0.712',
      '',
      'Both lineages.',
      '',
      'Autoresearch-Run: r',
      'Autoresearch-Iteration: 10',
      'Autoresearch-Score: 0.712',
      'Autoresearch-Pool: p9',
      '',
    ]);
    const mutation = formatPoolMessage({
      ...base,
      member: 'p3',
      iteration: 2,
      kind: 'mutation',
      parents: ['p1'],
    });
    expect(mutation.split('\n').slice(0, 3)).toEqual([
      'autoresearch(x): pool p3, iter 2, from p1',
      '',
      '(no hypothesis stated)',
    ]);
  });
});
