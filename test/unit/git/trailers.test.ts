import { describe, expect, it } from 'vitest';
import { parseRunTrailers, parseTrailerLog } from '../../../src/git/trailers.js';

describe('parseRunTrailers', () => {
  it('reads run, iteration and score, keys case-insensitively', () => {
    expect(
      parseRunTrailers(
        'autoresearch-run: r-1\nAutoresearch-Iteration: 12\nAUTORESEARCH-SCORE: 0.768\nSigned-off-by: A <a@b>\n',
      ),
    ).toEqual({ runId: 'r-1', iteration: 12, score: 0.768 });
  });

  it('reads the pool member of a pareto run, only when it is a member id', () => {
    expect(
      parseRunTrailers('Autoresearch-Run: r\nAutoresearch-Iteration: 3\nautoresearch-pool: p12\n'),
    ).toEqual({
      runId: 'r',
      iteration: 3,
      score: undefined,
      pool: 'p12',
    });
    expect(parseRunTrailers('Autoresearch-Pool: p01').pool).toBeUndefined();
    expect(parseRunTrailers('Autoresearch-Pool: best').pool).toBeUndefined();
  });

  it('leaves malformed or missing values undefined', () => {
    expect(
      parseRunTrailers('Autoresearch-Run: \nAutoresearch-Iteration: 1.5\nAutoresearch-Score: high'),
    ).toEqual({
      runId: undefined,
      iteration: undefined,
      score: undefined,
    });
    expect(parseRunTrailers('')).toEqual({ runId: undefined, iteration: undefined, score: undefined });
  });
});

describe('parseTrailerLog', () => {
  it('splits git log records into commits with their trailers', () => {
    const stdout =
      'aaa\x1fAutoresearch-Run: r\nAutoresearch-Iteration: 2\nAutoresearch-Score: 0.500\n\x1e\n' +
      'bbb\x1fAutoresearch-Run: r\nAutoresearch-Iteration: 0\n\x1e\n' +
      'ccc\x1f\x1e\n';
    expect(parseTrailerLog(stdout)).toEqual([
      { sha: 'aaa', trailers: { runId: 'r', iteration: 2, score: 0.5 } },
      { sha: 'bbb', trailers: { runId: 'r', iteration: 0, score: undefined } },
      { sha: 'ccc', trailers: { runId: undefined, iteration: undefined, score: undefined } },
    ]);
    expect(parseTrailerLog('')).toEqual([]);
  });
});
