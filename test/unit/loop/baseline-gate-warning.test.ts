import { describe, expect, it } from 'vitest';
import { describeGateFailures } from '../../../src/loop/baseline.js';

const cases = ['a', 'b', 'c', 'd'].map((caseId) => ({ caseId }));

describe('describeGateFailures', () => {
  it('names each failing gate with how many cases it fails, and one reason', () => {
    const message = describeGateFailures({
      cases,
      gateFailures: [
        { caseId: 'a', sample: 0, check: 'is-json', reason: 'output is not valid JSON:\nUnexpected token' },
        { caseId: 'a', sample: 1, check: 'is-json', reason: 'output is not valid JSON' },
        { caseId: 'b', sample: 0, check: 'is-json', reason: 'output is not valid JSON' },
        { caseId: 'b', sample: 0, check: 'no-brackets', reason: 'contains "["' },
      ],
    });
    expect(message).toBe(
      'the starting prompt fails a gate on 2 of 4 cases — is-json on 2 of 4, no-brackets on 1 of 4 (a: output is not valid JSON: Unexpected token). It stays the baseline, but the first candidate that passes every gate replaces it whatever its score; check the gate can be met if no proposal gets there.',
    );
  });

  it('says "every case" when no case passes', () => {
    const message = describeGateFailures({
      cases: cases.slice(0, 2),
      gateFailures: [
        { caseId: 'a', sample: 0, check: 'g', reason: 'r' },
        { caseId: 'b', sample: 0, check: 'g', reason: 'r' },
      ],
    });
    expect(message).toMatch(/^the starting prompt fails a gate on every case — g on 2 of 2 \(a: r\)\./);
  });
});
