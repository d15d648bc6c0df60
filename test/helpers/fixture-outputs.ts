/**
 * What a fixture candidate produces, derived from its traits: the prompt, one email per case,
 * the check outcomes, the judge's scores (written with neutral shuffled names and a map back),
 * the grader's verdicts (with a flagged PASS and eval feedback) and the split scores.
 */
import type { SplitScores } from '../../src/run/events.js';
import type { candidatePaths } from '../../src/run/paths.js';
import { CRITERIA, HOSTILE_IMG, HOSTILE_SCRIPT, type FixtureCase, type Traits } from './fixture-scenarios.js';

export function promptFor(t: Traits): string {
  const lines = ['Write a cold email to {{name}}, {{role}} at {{company}}.', ''];
  if (t.subject) lines.push('Start with a line "Subject: ..." naming their problem.');
  lines.push(
    t.personal
      ? 'Open with their own pain: {{pain}}.'
      : 'Introduce Ledgerly, our billing platform, in the first sentence.',
  );
  if (t.buzzwords)
    lines.push('Sound innovative: mention synergy and how we leverage best-in-class workflows.');
  if (t.long)
    lines.push('Add social proof: three customer names and a headline metric, with a short story for each.');
  if (t.overfit) lines.push('Repeat {{company}} in every paragraph.');
  lines.push(
    t.question
      ? 'End with one question proposing a 15-minute call next Tuesday.'
      : 'Close by asking them to reply if interested.',
  );
  lines.push('Keep it under 120 words. Sign as Dana.', '');
  return lines.join('\n');
}

export function writeEmail(t: Traits, c: FixtureCase): string {
  const parts: string[] = [];
  if (t.subject)
    parts.push(`Subject: ${t.personal ? `${c.pain} at ${c.company}` : 'Introducing Ledgerly'}`, '');
  parts.push(`Hi ${c.name},`, '');
  parts.push(
    t.personal
      ? `Teams like ${c.company} often lose days to ${c.pain}.`
      : 'I wanted to introduce Ledgerly, the billing platform for modern teams.',
  );
  if (t.overfit)
    parts.push(
      c.split === 'train'
        ? `${c.company} is exactly who we built this for; ${c.company} would see it on day one.`
        : 'Your organisation, like any organisation, has processes.',
    );
  parts.push(
    t.buzzwords
      ? 'Our synergy-driven platform lets you leverage best-in-class workflows.'
      : 'Ledgerly keeps finance and engineering on the same numbers every day.',
  );
  if (t.long) {
    parts.push(
      '',
      'Acme cut reconciliation from nine days to two. Globex stopped losing revenue to stale plans. Initech finally trusts its invoices again.',
      'Each of them started with a single workflow, measured it for a month, and then rolled it out across finance, engineering and support, with a dedicated onboarding lead, weekly check-ins and a shared dashboard their CFO reads every Monday morning before the leadership meeting.',
      'We would love to show you the same dashboard with your own numbers in it, walk you through how the first workflow is chosen, and introduce you to two customers in your industry who can tell you, in their own words, what changed for their teams.',
    );
  }
  if (t.hostile && c.id === 'agency-founder') parts.push('', `P.S. ${HOSTILE_SCRIPT} ${HOSTILE_IMG}`);
  parts.push(
    '',
    t.question ? 'Would a 15-minute call next Tuesday be useful?' : 'Let me know if you are interested.',
    '',
    'Dana',
  );
  return `${parts.join('\n')}\n`;
}

export function runChecks(text: string) {
  const words = text.split(/\s+/).filter(Boolean).length;
  const buzz = ['synergy', 'leverage'].filter((w) => text.toLowerCase().includes(w));
  const subject = text.startsWith('Subject:');
  return [
    {
      name: 'starts-with "Subject:"',
      type: 'starts-with',
      weight: 1,
      gate: true,
      pass: subject,
      score: subject ? 1 : 0,
      reason: subject ? 'starts with "Subject:"' : 'starts with "Hi"',
    },
    {
      name: 'word-count ≤ 120',
      type: 'word-count',
      weight: 1,
      gate: false,
      pass: words <= 120,
      score: words <= 120 ? 1 : 0,
      reason: `${words} words`,
    },
    {
      name: 'no buzzwords',
      type: 'not-icontains-any',
      weight: 1,
      gate: false,
      pass: buzz.length === 0,
      score: buzz.length === 0 ? 1 : 0,
      reason: buzz.length ? `contains ${buzz.join(', ')}` : 'none of synergy, leverage',
    },
    {
      name: 'greets by name',
      type: 'icontains',
      weight: 1,
      gate: false,
      pass: true,
      score: 1,
      reason: 'contains "Hi"',
    },
  ];
}

export function judgeCase(
  t: Traits,
  c: FixtureCase,
  jitter: number,
): Record<(typeof CRITERIA)[number], number> {
  const clamp = (n: number) => Math.max(1, Math.min(5, n));
  const holdoutOverfit = t.overfit && c.split === 'holdout';
  return {
    call_to_action: t.question ? 5 : 2,
    clarity: clamp(
      4 -
        (t.long ? 2 : 0) -
        (t.buzzwords ? 1 : 0) -
        (holdoutOverfit ? 2 : 0) +
        (jitter === 1 && c.id === 'saas-cto' ? 1 : 0),
    ),
    personalization: clamp(
      (t.personal ? 4 : 2) +
        (t.overfit ? (c.split === 'train' ? 1 : -3) : 0) -
        (jitter === 2 && c.id === 'agency-founder' ? 1 : 0),
    ),
  };
}

export function writeJudge(
  put: (p: string, v: unknown) => void,
  cp: ReturnType<typeof candidatePaths>,
  outputs: { c: FixtureCase; text: string }[],
  seed: number,
  jitter: number,
  t: Traits,
): void {
  const order = outputs
    .map((o, i) => ({ ...o, i }))
    .sort((a, b) => ((a.i * 7 + seed) % 5) - ((b.i * 7 + seed) % 5));
  const map = order.map((o, n) => ({ file: `output_0${n}.txt`, case_id: o.c.id, sample: 0 }));
  const perOutput = order.map((o, n) => {
    const scores = judgeCase(t, o.c, jitter);
    const average = (scores.call_to_action + scores.clarity + scores.personalization) / 3;
    const reasoning = `${scores.personalization >= 4 ? `Speaks to ${o.c.company}'s own problem.` : 'Generic opener that could go to anyone.'} ${scores.call_to_action >= 4 ? 'The ask is specific and easy to accept.' : 'The closing ask is vague.'}${o.text.includes('<script>') ? ' Contains stray markup: </script><script>alert(1)</script>.' : ''}`;
    return { file: `output_0${n}.txt`, criteria_scores: scores, average, reasoning };
  });
  const averages = Object.fromEntries(
    CRITERIA.map((k) => [k, mean(perOutput.map((p) => p.criteria_scores[k]))]),
  );
  put(cp.judgeScores, {
    quality_score: mean(Object.values(averages)) / 5,
    per_output: perOutput,
    criteria_averages: averages,
  });
  put(cp.judgeMap, map);
}

interface Verdict {
  text: string;
  passed: boolean;
  evidence: string;
  flag?: string;
}

export function gradeCase(c: FixtureCase, text: string, iteration: number): Verdict[] {
  const painLine = text.split('\n').find((line) => line.includes(c.pain));
  return c.expectations.map((e): Verdict => {
    if (e.startsWith('Names')) {
      // The grader claims a PASS with a quote that is not in the output: the runner flags it.
      if (iteration === 7 && c.split === 'holdout')
        return {
          text: e,
          passed: false,
          evidence: 'It mentions how the close drags on every month.',
          flag: 'claimed PASS not verified: the quoted evidence does not occur in the output',
        };
      if (painLine) return { text: e, passed: true, evidence: painLine };
      return { text: e, passed: false, evidence: 'The email pitches the product and never names a problem.' };
    }
    const last =
      text
        .trim()
        .split('\n')
        .filter((l) => l.trim() !== '' && l !== 'Dana')
        .at(-1) ?? '';
    return last.endsWith('?')
      ? { text: e, passed: true, evidence: last }
      : { text: e, passed: false, evidence: `The email ends with "${last}".` };
  });
}

export function writeGrading(
  put: (p: string, v: unknown) => void,
  cp: ReturnType<typeof candidatePaths>,
  outputs: { c: FixtureCase; text: string }[],
  iteration: number,
): void {
  for (const { c, text } of outputs) {
    if (c.expectations.length === 0) continue;
    const expectations = gradeCase(c, text, iteration);
    const passed = expectations.filter((e) => e.passed).length;
    put(cp.caseGrading(c.id), {
      expectations,
      summary: {
        passed,
        failed: expectations.length - passed,
        total: expectations.length,
        pass_rate: passed / expectations.length,
      },
      claims: text.includes(c.pain)
        ? [
            {
              claim: `${c.company} loses days to ${c.pain}`,
              type: 'factual',
              verified: false,
              evidence: 'The case vars name the pain but not how long it takes.',
            },
          ]
        : [],
      eval_feedback: {
        suggestions:
          c.id === 'saas-cto'
            ? [
                {
                  assertion: 'Ends with a question',
                  reason: 'Any closing question passes, even one that does not ask for a meeting.',
                },
              ]
            : [],
        overall:
          'The expectations are easy to meet with generic text; add one that checks the pain is stated in the prospect’s own terms.',
      },
    });
  }
}

export function scoreCandidate(
  t: Traits,
  outputs: { c: FixtureCase; text: string }[],
  jitter: number,
  withJudge: boolean,
  iteration: number,
) {
  const split = (which: string): SplitScores => {
    const inSplit = outputs.filter((o) => o.c.split === which);
    const checks = mean(inSplit.flatMap((o) => runChecks(o.text).map((r) => r.score)));
    const judge = withJudge
      ? mean(inSplit.map((o) => (mean(Object.values(judgeCase(t, o.c, jitter))) - 1) / 4))
      : null;
    const expectationCases = inSplit.filter((o) => o.c.expectations.length > 0);
    const expectations =
      withJudge && expectationCases.length
        ? mean(
            expectationCases.flatMap((o) => gradeCase(o.c, o.text, iteration).map((v) => (v.passed ? 1 : 0))),
          )
        : null;
    const parts = [
      [checks, 0.4],
      [judge, 0.4],
      [expectations, 0.2],
    ].filter((p): p is [number, number] => p[0] !== null);
    const total = parts.reduce((s, [v, w]) => s + v * w, 0) / parts.reduce((s, [, w]) => s + w, 0);
    return {
      total: round4(total),
      checks: round4(checks),
      judge: judge === null ? null : round4(judge),
      expectations: expectations === null ? null : round4(expectations),
    };
  };
  const train = split('train');
  const criteria = Object.fromEntries(
    CRITERIA.map((k) => [
      k,
      round4(mean(outputs.filter((o) => o.c.split === 'train').map((o) => judgeCase(t, o.c, jitter)[k]))),
    ]),
  );
  return { scores: { train, holdout: split('holdout'), all: { ...train } }, criteria };
}

export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
