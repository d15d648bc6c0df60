/**
 * "Optimisation works": the simulated mutator and generator, wired as a tiny loop, take a bare
 * cold-email prompt to one that passes its checks. The checks are plain string tests here.
 */
import { describe, expect, test } from 'vitest';
import { renderTemplate } from '../../../../src/experiment/template.js';
import {
  formatFeedbackBlock,
  MUTATOR_FEEDBACK_FORMAT,
  type MutatorFeedback,
  MutatorReply,
} from '../../../../src/protocol/mutation.js';
import { simulateCompletion } from '../../../../src/providers/sim/simulate.js';

const CASES = [
  { case_id: 'saas-cto', vars: { topic: 'Usage-based billing', audience: 'CTO at a 50-person SaaS' } },
  {
    case_id: 'clinic',
    vars: { topic: 'Appointment reminders', audience: 'practice manager at a dental clinic' },
  },
  {
    case_id: 'retail',
    vars: { topic: 'Inventory forecasting', audience: 'operations lead at a retail chain' },
  },
  { case_id: 'agency', vars: { topic: 'Time tracking', audience: 'founder of a design agency' } },
];
const SAMPLES = 2;

interface Check {
  name: string;
  type: string;
  test(output: string): string | undefined;
}

const CHECKS: Check[] = [
  {
    name: 'word-count max 150',
    type: 'word-count',
    test: (o) => {
      const words = o.trim().split(/\s+/).length;
      return words <= 150 ? undefined : `${words} words, more than the maximum of 150`;
    },
  },
  {
    name: 'starts-with "Subject:"',
    type: 'starts-with',
    test: (o) => (o.startsWith('Subject:') ? undefined : 'does not start with "Subject:"'),
  },
  {
    name: 'not-icontains-any [synergy, leverage]',
    type: 'not-icontains-any',
    test: (o) => {
      const found = ['synergy', 'leverage'].find((w) => o.toLowerCase().includes(w));
      return found === undefined ? undefined : `contains "${found}"`;
    },
  },
];

interface Evaluation {
  passRate: number;
  feedbackCases: MutatorFeedback['failing_cases'];
  checkFailures: MutatorFeedback['check_failures'];
}

function evaluate(prompt: string, model: string): Evaluation {
  let passed = 0;
  let total = 0;
  const failures = new Map<string, number>();
  const failingCases: MutatorFeedback['failing_cases'] = [];
  for (const { case_id, vars } of CASES) {
    for (let sample = 0; sample < SAMPLES; sample++) {
      const output = simulateCompletion({
        messages: [{ role: 'user', content: renderTemplate(prompt, vars) }],
        model,
        temperature: 0.7,
        sampleIndex: sample,
      }).text;
      const failed = CHECKS.flatMap((check) => {
        const reason = check.test(output);
        return reason === undefined ? [] : [{ name: check.name, type: check.type, reason }];
      });
      total += CHECKS.length;
      passed += CHECKS.length - failed.length;
      for (const f of failed) failures.set(f.name, (failures.get(f.name) ?? 0) + 1);
      if (failed.length > 0 && sample === 0)
        failingCases.push({
          case_id,
          vars,
          score: 1 - failed.length / CHECKS.length,
          output_excerpt: output.slice(0, 200),
          failed_checks: failed,
          judge: null,
          failed_expectations: [],
        });
    }
  }
  return {
    passRate: passed / total,
    feedbackCases: failingCases.sort((a, b) => a.score - b.score).slice(0, 3),
    checkFailures: CHECKS.map((c) => ({
      name: c.name,
      type: c.type,
      failed: failures.get(c.name) ?? 0,
      total: CASES.length * SAMPLES,
    })).sort((a, b) => b.failed - a.failed),
  };
}

function feedbackFor(
  prompt: string,
  evaluation: Evaluation,
  history: MutatorFeedback['history'],
  strategy: 'focused' | 'bold',
): MutatorFeedback {
  return {
    format: MUTATOR_FEEDBACK_FORMAT,
    strategy,
    incumbent: {
      prompt,
      chars: prompt.length,
      placeholders: ['topic', 'audience'],
      keep_blocks: [],
      score: { total: evaluation.passRate, checks: evaluation.passRate },
      criteria: {},
    },
    max_chars: Math.floor(prompt.length * 1.5),
    failing_cases: evaluation.feedbackCases,
    check_failures: evaluation.checkFailures,
    history,
    guidance: '',
  };
}

function parseReply(text: string): MutatorReply {
  const json = /^```json\n([\s\S]*)\n```$/.exec(text)?.[1] ?? text;
  return MutatorReply.parse(JSON.parse(json));
}

describe('the simulated loop', () => {
  test.each(['sim-1', 'sim-2', 'sim-3'])(
    'with model %s raises the share of outputs passing the checks from a bare prompt',
    (model) => {
      let prompt = 'Write a cold email about {{topic}} for {{audience}}.';
      let incumbent = evaluate(prompt, model);
      const baseline = incumbent.passRate;
      const history: MutatorFeedback['history'] = [];
      let discards = 0;
      let discardsInRow = 0;
      for (let round = 1; round <= 10; round++) {
        const feedback = feedbackFor(prompt, incumbent, history, discardsInRow >= 3 ? 'bold' : 'focused');
        const reply = parseReply(
          simulateCompletion({
            system: 'You improve prompts.',
            messages: [{ role: 'user', content: `Improve the prompt.\n\n${formatFeedbackBlock(feedback)}` }],
            model,
            temperature: 1,
            sampleIndex: round,
          }).text,
        );
        const candidate = evaluate(reply.prompt, model);
        const keep = candidate.passRate > incumbent.passRate;
        history.unshift({
          iteration: round,
          status: keep ? 'keep' : 'discard',
          score: candidate.passRate,
          hypothesis: reply.hypothesis,
        });
        if (keep) {
          prompt = reply.prompt;
          incumbent = candidate;
          discardsInRow = 0;
        } else {
          discards++;
          discardsInRow++;
        }
      }
      expect(baseline).toBeLessThan(0.6);
      expect(incumbent.passRate).toBeGreaterThanOrEqual(baseline + 0.3);
      expect(incumbent.passRate).toBeGreaterThanOrEqual(0.85);
      expect(discards).toBeGreaterThan(0);
      expect(prompt).toContain('{{topic}}');
      expect(prompt).toContain('{{audience}}');
    },
  );
});
