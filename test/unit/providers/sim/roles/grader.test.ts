import { describe, expect, test } from 'vitest';
import { buildGraderUserMessage, GradingFile } from '../../../../../src/protocol/grading.js';
import { MIN_QUOTE_CHARS } from '../../../../../src/providers/sim/roles/grader.js';
import { simulateCompletion } from '../../../../../src/providers/sim/simulate.js';

const OUTPUT = [
  'Subject: Usage-based billing for CTO teams',
  '',
  'Hi,',
  '',
  'Invoices that swing every month are the main pain of usage-based billing for a 50-person SaaS. Teams like yours cut reconciliation time by 34% within 60 days.',
  '',
  'Would a 15-minute call next Tuesday help?',
].join('\n');
const TRANSCRIPT =
  'vars: {"topic": "Usage-based billing", "audience": "CTO at a 50-person SaaS"}\nmodel: sim-1\nsample: 0';
const EXPECTATIONS = [
  'Names one concrete pain of usage-based billing',
  'Offers a free trial with no credit card',
  'Ends with a question',
  'Mentions invoices',
];

function grade(expectations: string[], outputs: { file: string; text: string }[]): GradingFile {
  const message = buildGraderUserMessage({ expectations, transcript: TRANSCRIPT, outputs });
  const { text, role } = simulateCompletion({ messages: [{ role: 'user', content: message }] });
  expect(role).toBe('grader');
  return GradingFile.parse(JSON.parse(text));
}

const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim();

describe('the simulated grader', () => {
  const grading = grade(EXPECTATIONS, [{ file: 'output_00.txt', text: OUTPUT }]);

  test('keeps every expectation text exactly, in order', () => {
    expect(grading.expectations.map((e) => e.text)).toEqual(EXPECTATIONS);
  });

  test('passes what the output covers, with a verbatim quote of reasonable length', () => {
    expect(grading.expectations.map((e) => e.passed)).toEqual([true, false, true, true]);
    for (const verdict of grading.expectations.filter((e) => e.passed)) {
      expect(normalise(OUTPUT)).toContain(normalise(verdict.evidence));
      expect(verdict.evidence.length).toBeGreaterThanOrEqual(MIN_QUOTE_CHARS);
      expect(normalise(verdict.evidence)).not.toBe(normalise(verdict.text));
    }
    expect(grading.expectations[0]?.evidence).toContain('main pain of usage-based billing');
    expect(grading.expectations[2]?.evidence).toBe('Would a 15-minute call next Tuesday help?');
  });

  test('fails what is missing and says what is missing', () => {
    const failed = grading.expectations[1];
    expect(failed?.evidence).toMatch(/"free".*"trial"|"trial"/);
    expect(failed?.evidence).toContain('output_00.txt');
  });

  test('reports a consistent summary', () => {
    expect(grading.summary).toEqual({ passed: 3, failed: 1, total: 4, pass_rate: 0.75 });
  });

  test('extracts claims with figures and checks them against the transcript', () => {
    expect(grading.claims.length).toBeGreaterThanOrEqual(1);
    expect(grading.claims.length).toBeLessThanOrEqual(3);
    const supported = grading.claims.find((c) => c.claim.includes('50-person'));
    const invented = grading.claims.find((c) => c.claim.includes('34%'));
    expect(supported?.verified).toBe(true);
    expect(invented?.verified).toBe(false);
  });

  test('critiques expectations that pass while asking for almost nothing', () => {
    const flagged = grading.eval_feedback.suggestions.map((s) => s.assertion);
    expect(flagged).toContain('Mentions invoices');
    expect(flagged).toContain('Ends with a question');
    expect(flagged).not.toContain('Offers a free trial with no credit card');
  });

  test('widens a short sentence into a quote of at least the minimum length', () => {
    const short = grade(
      ['Says hello'],
      [{ file: 'o.txt', text: 'Hello. We build billing tools for small teams.' }],
    );
    expect(short.expectations[0]?.passed).toBe(true);
    expect(short.expectations[0]?.evidence).toBe('Hello. We build billing tools for small teams.');
  });

  test('with several outputs an expectation passes only when every output meets it', () => {
    const two = grade(
      ['Mentions invoices'],
      [
        { file: 'output_00.txt', text: OUTPUT },
        { file: 'output_01.txt', text: 'Subject: Hello\n\nWe make billing simple for growing companies.' },
      ],
    );
    expect(two.expectations[0]?.passed).toBe(false);
    expect(two.expectations[0]?.evidence).toContain('output_01.txt');
  });

  test('with no outputs every expectation fails', () => {
    const none = grade(['Mentions invoices'], []);
    expect(none.expectations[0]?.passed).toBe(false);
  });
});
