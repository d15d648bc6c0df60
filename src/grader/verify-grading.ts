/**
 * The runner's check of a grader's `grading.json` (docs/design/grader-protocol.md), pure: the
 * expectation texts must be exactly the ones asked (compared after trimming; none reworded, dropped
 * or added), the summary is recomputed, and every PASS must quote an output (or an agent case's
 * transcript) — an unverifiable PASS
 * becomes a FAIL with a `flag` saying why. Claims and eval feedback are kept as the grader wrote
 * them.
 */
import * as z from 'zod';
import { GradedExpectation, GradingFile } from '../protocol/grading.js';
import { checkEvidence } from './verify-evidence.js';

/** A grading.json expectation may carry the flag of an earlier verification (the built-in grader's). */
const FlaggedExpectation = GradedExpectation.extend({ flag: z.string().optional() });
const IncomingGrading = GradingFile.extend({ expectations: z.array(FlaggedExpectation) });

export const VerifiedGrading = GradingFile.extend({
  expectations: z.array(FlaggedExpectation),
  summary: z.object({
    passed: z.number().int(),
    failed: z.number().int(),
    total: z.number().int(),
    pass_rate: z.number(),
  }),
});
export type VerifiedGrading = z.infer<typeof VerifiedGrading>;
export type VerifiedExpectation = VerifiedGrading['expectations'][number];

export interface GradingInput {
  expectations: readonly string[];
  outputs: readonly string[];
  /** An agent case's transcripts: a PASS may quote them too (verify-evidence.ts). */
  transcripts?: readonly string[];
}

export type GradingCheck = { ok: true; grading: VerifiedGrading } | { ok: false; problems: string[] };

function quoteText(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text);
}

export function summarise(expectations: readonly { passed: boolean }[]): VerifiedGrading['summary'] {
  const total = expectations.length;
  const passed = expectations.filter((e) => e.passed).length;
  return { passed, failed: total - passed, total, pass_rate: total === 0 ? 0 : passed / total };
}

export function verifyGrading(raw: unknown, input: GradingInput): GradingCheck {
  const parsed = IncomingGrading.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    return {
      ok: false,
      problems: [`grading.json does not have the expected shape${where}: ${issue?.message ?? '?'}`],
    };
  }
  const graded = parsed.data;
  const pool = new Map<string, (typeof graded.expectations)[number][]>();
  for (const item of graded.expectations) {
    const key = item.text.trim();
    pool.set(key, [...(pool.get(key) ?? []), item]);
  }
  const problems: string[] = [];
  const matched: (typeof graded.expectations)[number][] = [];
  for (const text of input.expectations) {
    const item = pool.get(text.trim())?.shift();
    if (item === undefined) problems.push(`the expectation ${quoteText(text)} is missing or was reworded`);
    else matched.push({ ...item, text });
  }
  for (const left of pool.values()) {
    for (const item of left) problems.push(`${quoteText(item.text)} is not one of the expectations`);
  }
  if (problems.length > 0) return { ok: false, problems };

  const expectations = matched.map((item): VerifiedExpectation => {
    if (!item.passed) return item;
    const check = checkEvidence(item.evidence, item.text, input.outputs, input.transcripts);
    if (check.verified) return { text: item.text, passed: true, evidence: item.evidence };
    return {
      text: item.text,
      passed: false,
      evidence: item.evidence,
      flag: `claimed PASS not verified: ${check.reason}`,
    };
  });
  return {
    ok: true,
    grading: {
      expectations,
      summary: summarise(expectations),
      claims: graded.claims,
      eval_feedback: graded.eval_feedback,
    },
  };
}

/** The PASS claims the verification turned into FAILs. */
export function flaggedExpectations(grading: VerifiedGrading): VerifiedExpectation[] {
  return grading.expectations.filter((e) => e.flag !== undefined);
}
