import { describe, expect, it } from 'vitest';
import {
  candidateQuotes,
  checkEvidence,
  MIN_QUOTE_CHARS,
  normaliseForMatch,
} from '../../../src/grader/verify-evidence.js';

const output =
  'Subject: Faster close\n\nHi Dana,   usage-based billing makes revenue\nforecasting hard. We cut month‑end close from 6 days to 2 — worth a call?';
const expectation = 'Names one concrete pain of usage-based billing';

describe('checkEvidence', () => {
  it('accepts a verbatim quote, whitespace, case and typography normalised', () => {
    expect(
      checkEvidence('"usage-based billing makes revenue forecasting hard."', expectation, [output]).verified,
    ).toBe(true);
    expect(
      checkEvidence('Output 1: “We cut month-end close from 6 days to 2 - worth a call?”', expectation, [
        output,
      ]).verified,
    ).toBe(true);
    expect(
      checkEvidence('usage-based BILLING makes   revenue forecasting hard', expectation, [output]).verified,
    ).toBe(true);
  });

  it('accepts the parts of a quote around an ellipsis', () => {
    expect(
      checkEvidence('"Hi Dana, usage-based billing … close from 6 days to 2"', expectation, [output])
        .verified,
    ).toBe(true);
  });

  it('finds the quote in any of several outputs', () => {
    expect(checkEvidence('"forecasting hard. We cut"', expectation, ['nothing here', output]).verified).toBe(
      true,
    );
  });

  it('rejects a quote that is not in the output', () => {
    expect(
      checkEvidence('"Usage-based billing creates surprise invoices for customers."', expectation, [output]),
    ).toEqual({
      verified: false,
      reason: 'the quoted evidence does not occur in any output',
    });
  });

  it('rejects the expectation restated as evidence', () => {
    expect(checkEvidence('Names one concrete pain of usage-based billing', expectation, [output])).toEqual({
      verified: false,
      reason: 'the evidence restates the expectation instead of quoting an output',
    });
  });

  it(`rejects quotes shorter than ${MIN_QUOTE_CHARS} characters, and empty evidence`, () => {
    expect(checkEvidence('"6 days"', expectation, [output])).toMatchObject({
      verified: false,
      reason: /shorter than/,
    });
    expect(checkEvidence('  ', expectation, [output])).toMatchObject({
      verified: false,
      reason: /no evidence/,
    });
  });
});

describe('checkEvidence for an agent case', () => {
  const files = ['# 2.4.0\n\n## Fixed\n- The export button works again.\n', 'Wrote RELEASE_NOTES.md.'];
  const transcript =
    '## Turn 1\n\n**Bash** `call_1`\n\n```\n{"command": "npm test"}\n```\n\nResult of `call_1`:\n\n```\n14 tests passed, 0 failed\n```\n';

  it('accepts a quote found in the transcript or in any output file', () => {
    expect(checkEvidence('"14 tests passed, 0 failed"', 'Runs the tests', files, [transcript])).toEqual({
      verified: true,
      quote: '14 tests passed, 0 failed',
    });
    expect(
      checkEvidence('"The export button works again."', 'Lists the fix', files, [transcript]).verified,
    ).toBe(true);
  });

  it('refuses a quote found nowhere, saying where it looked', () => {
    expect(checkEvidence('"All 20 tests passed on CI."', 'Runs the tests', files, [transcript])).toEqual({
      verified: false,
      reason: 'the quoted evidence occurs neither in an output nor in the transcript',
    });
  });

  it('takes nothing from a transcript it was not given (a text case’s holds the vars)', () => {
    expect(checkEvidence('"14 tests passed, 0 failed"', 'Runs the tests', files).verified).toBe(false);
  });
});

describe('quote extraction', () => {
  it('normalises typography and whitespace', () => {
    expect(normaliseForMatch('It’s  “done” — really…\n')).toBe('it\'s "done" - really...');
  });

  it('offers quoted passages and the text after a label', () => {
    expect(candidateQuotes('The output says: "alpha beta" and \'gamma delta\'')).toEqual(
      expect.arrayContaining(['alpha beta', 'gamma delta']),
    );
  });
});
