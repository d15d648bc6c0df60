/**
 * Checklist criteria (docs/design/judge-reliability.md): `- [ ] …` items under a criterion are read
 * from the rubric, answered yes/no by the built-in judge (and the sim), scored 1 + round(4 × share
 * met), and their answers kept in an optional `items` field that a judge may leave out.
 */
import { describe, expect, it } from 'vitest';
import { parseRubric } from '../../../src/experiment/rubric.js';
import { checkJudgeReply, checklistScore, runBuiltinJudge } from '../../../src/judge/builtin-judge.js';
import { validateJudgeScores } from '../../../src/judge/validate-judge-scores.js';
import { buildJudgeUserMessage, parseJudgeUserMessage } from '../../../src/protocol/judge-call.js';
import { simulateCompletion } from '../../../src/providers/sim/simulate.js';
import type { CompletionRequest, CompletionResult } from '../../../src/providers/types.js';

const RUBRIC = `# Email rubric

## Criteria

### Clarity

| Score | Meaning |
|---|---|
| 1 | bad |
| 5 | good |

### Essentials
weight: 2

- [ ] Has a subject line
* [x] Names a concrete problem the reader has
- [ ] Ends with a question

\`\`\`
- [ ] inside a code fence: not an item
\`\`\`

- not a checklist line
`;

const ITEMS = ['Has a subject line', 'Names a concrete problem the reader has', 'Ends with a question'];

describe('parseRubric with a checklist criterion', () => {
  it('reads the items of the criterion they sit under, outside code fences; a plain criterion has none', () => {
    const { rubric, problems } = parseRubric('/r.md', RUBRIC);
    expect(problems).toEqual([]);
    expect(rubric?.criteria).toEqual([
      { key: 'clarity', title: 'Clarity', weight: 1 },
      { key: 'essentials', title: 'Essentials', weight: 2, items: ITEMS },
    ]);
  });
});

describe('checklistScore', () => {
  it('maps the share met onto 1–5: 1 + round(4 × share)', () => {
    expect(checklistScore([false, false, false])).toBe(1);
    expect(checklistScore([true, false, false])).toBe(2); // 1 + round(1.33)
    expect(checklistScore([true, true, false])).toBe(4); // 1 + round(2.67)
    expect(checklistScore([true, true, true])).toBe(5);
    expect(checklistScore([true, false])).toBe(3);
    expect(checklistScore([true, false, false, false, false, false, false, false])).toBe(2); // 1 + round(0.5)
  });
});

describe('the judge call with checklists', () => {
  it('leaves a rubric without checklists exactly as it was (cached calls stay valid)', () => {
    const message = buildJudgeUserMessage({ rubric: 'R', criteria: ['clarity'], output: 'text' });
    expect(message).not.toContain('Checklist');
    expect(message).not.toContain('"items"');
    expect(parseJudgeUserMessage(message)).toEqual({ rubric: 'R', criteria: ['clarity'], output: 'text' });
  });

  it('lists the checklist items apart from the scored keys, and the sim answers them', () => {
    const message = buildJudgeUserMessage({
      rubric: RUBRIC,
      criteria: ['clarity'],
      checklists: { essentials: ITEMS },
      output: 'Subject: Billing\n\nYour invoices arrive late every month. Can we fix that on Thursday?',
    });
    expect(parseJudgeUserMessage(message)?.checklists).toEqual({ essentials: ITEMS });
    const reply = JSON.parse(simulateCompletion({ messages: [{ role: 'user', content: message }] }).text);
    expect(Object.keys(reply.criteria_scores)).toEqual(['clarity']);
    // "subject" and "question" appear in the text: those items are met whatever the heuristic says.
    expect(reply.items.essentials).toHaveLength(3);
    expect(reply.items.essentials[0]).toBe(true);
    expect(checkJudgeReply(JSON.stringify(reply), ['clarity'], { essentials: ITEMS }).ok).toBe(true);
  });

  it('refuses a reply that answers the wrong number of items', () => {
    const reply = JSON.stringify({
      criteria_scores: { clarity: 3 },
      items: { essentials: [true] },
      reasoning: 'Fine.',
    });
    expect(checkJudgeReply(reply, ['clarity'], { essentials: ITEMS })).toEqual({
      ok: false,
      problem: 'the checklist "essentials" needs 3 true/false answers, got 1',
    });
  });
});

function fakeModel(reply: (request: CompletionRequest) => string) {
  const requests: CompletionRequest[] = [];
  return {
    requests,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      requests.push(request);
      return { text: reply(request), usage: { inputTokens: 1, outputTokens: 1 }, costUsd: 0, latencyMs: 0 };
    },
  };
}

describe('runBuiltinJudge with a checklist criterion', () => {
  it('scores the checklist from the answers and writes them as items', async () => {
    const model = fakeModel(() =>
      JSON.stringify({
        criteria_scores: { clarity: 4 },
        items: { essentials: [true, true, false] },
        reasoning: 'Clear, but no question at the end.',
      }),
    );
    const result = await runBuiltinJudge({
      outputs: [{ file: 'output_00.txt', text: 'an email' }],
      rubricText: RUBRIC,
      criteria: ['clarity', 'essentials'],
      checklists: { essentials: ITEMS },
      model,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(parseJudgeUserMessage(model.requests[0]?.messages[0]?.content ?? '')?.criteria).toEqual([
      'clarity',
    ]);
    expect(result.scores.per_output[0]).toMatchObject({
      criteria_scores: { clarity: 4, essentials: 4 },
      items: {
        essentials: [
          { item: ITEMS[0], met: true },
          { item: ITEMS[1], met: true },
          { item: ITEMS[2], met: false },
        ],
      },
    });
    expect(result.scores.quality_score).toBeCloseTo(8 / 10, 10);
  });
});

describe('validateJudgeScores and items', () => {
  const expected = { files: ['output_00.txt'], criteria: ['clarity', 'essentials'] };
  const entry = (extra: Record<string, unknown>) => ({
    quality_score: 0,
    criteria_averages: {},
    per_output: [
      {
        file: 'output_00.txt',
        criteria_scores: { clarity: 4, essentials: 2 },
        average: 0,
        reasoning: 'Fine.',
        ...extra,
      },
    ],
  });

  it('accepts an external judge that ignores checklists (no items field)', () => {
    const result = validateJudgeScores(entry({}), expected);
    expect(result.ok).toBe(true);
    expect(result.ok && result.outputs[0]?.items).toBeUndefined();
  });

  it('keeps well-formed items, without anything else the judge wrote beside them', () => {
    const result = validateJudgeScores(
      entry({ items: { essentials: [{ item: 'Has a subject line', met: false, note: 'x' }] } }),
      expected,
    );
    expect(result.ok && result.outputs[0]?.items).toEqual({
      essentials: [{ item: 'Has a subject line', met: false }],
    });
  });

  it('refuses items for an unknown criterion or in the wrong shape', () => {
    const result = validateJudgeScores(
      entry({ items: { tone: [], essentials: [{ item: 'Has a subject line', met: 'yes' }] } }),
      expected,
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        'output_00.txt: items has criterion "tone", which the rubric does not define',
        'output_00.txt: items.essentials must be a list of {"item": text, "met": true|false}',
      ],
    });
  });
});
