import { describe, expect, it } from 'vitest';
import { checkJudgeReply, runBuiltinJudge } from '../../../src/judge/builtin-judge.js';
import { JUDGE_SYSTEM_PROMPT, judgeSystemPrompt } from '../../../src/judge/judge-prompt.js';
import { parseJudgeUserMessage } from '../../../src/protocol/judge-call.js';
import { outputFolderOf } from '../../../src/protocol/output-folder.js';
import { simulateCompletion } from '../../../src/providers/sim/simulate.js';
import type { CompletionRequest, CompletionResult } from '../../../src/providers/types.js';

const criteria = ['clarity', 'tone'];
const rubricText = '## Criteria\n### Clarity\n### Tone';

function fakeModel(reply: (request: CompletionRequest, call: number) => string) {
  const requests: CompletionRequest[] = [];
  return {
    requests,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      requests.push(request);
      return {
        text: reply(request, requests.length),
        usage: { inputTokens: 1, outputTokens: 1 },
        costUsd: 0,
        latencyMs: 0,
      };
    },
  };
}

const valid = (clarity: number, tone: number) =>
  JSON.stringify({ criteria_scores: { clarity, tone }, reasoning: 'Clear enough.' });

describe('runBuiltinJudge on an agent case’s folder', () => {
  const folder = outputFolderOf(
    'I wrote the release notes.',
    [
      {
        path: 'RELEASE_NOTES.md',
        status: 'created',
        kind: 'file',
        size: 40,
        text: '## Fixed\n- The export button works.\n',
      },
      { path: 'shot.png', status: 'created', kind: 'file', size: 900, skipped: 'not UTF-8 text' },
    ],
    false,
  );

  it('makes one call per output and sample holding the whole folder, introduced as an agent’s work', async () => {
    const model = fakeModel(() => valid(4, 3));
    const result = await runBuiltinJudge({
      outputs: [{ file: 'output_00', text: 'ignored for a folder', folder }],
      rubricText,
      criteria,
      model,
      samples: 2,
    });
    expect(result.ok).toBe(true);
    expect(model.requests).toHaveLength(2);
    const message = model.requests[0]?.messages[0]?.content ?? '';
    expect(message).not.toContain('output_00');
    expect(message).not.toContain('ignored for a folder');
    const parsed = parseJudgeUserMessage(message);
    expect(parsed?.folder).toBe(true);
    expect(parsed?.output).toContain('I wrote the release notes.');
    expect(parsed?.output).toContain('File: RELEASE_NOTES.md (created, 40 bytes)');
    expect(parsed?.output).toContain('- The export button works.');
    expect(parsed?.output).toContain('- shot.png (created, 900 bytes, not shown: not UTF-8 text)');
    if (result.ok) expect(result.scores.per_output.map((p) => p.file)).toEqual(['output_00']);
  });

  it('is answered by the simulated model', async () => {
    const sim = {
      async complete(request: CompletionRequest): Promise<CompletionResult> {
        const { text } = simulateCompletion({ ...request, messages: request.messages });
        return {
          text,
          usage: { inputTokens: 1, outputTokens: 1 },
          costUsd: 0,
          latencyMs: 0,
          simulated: true,
        };
      },
    };
    const result = await runBuiltinJudge({
      outputs: [{ file: 'output_00', text: '', folder }],
      rubricText,
      criteria,
      model: sim,
    });
    expect(result.ok).toBe(true);
  });
});

describe('runBuiltinJudge', () => {
  it('makes one call per output holding only the rubric and that output, never its file name', async () => {
    const model = fakeModel(() => valid(4, 3));
    const result = await runBuiltinJudge({
      outputs: [
        { file: 'output_00.txt', text: 'first text' },
        { file: 'output_01.txt', text: 'second text' },
      ],
      rubricText,
      criteria,
      model,
    });
    expect(result.ok).toBe(true);
    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) {
      expect(request.system).toBe(JUDGE_SYSTEM_PROMPT);
      const content = request.messages[0]?.content ?? '';
      expect(content).not.toContain('output_0');
      expect(parseJudgeUserMessage(content)?.criteria).toEqual(criteria);
    }
    expect(
      model.requests.map((r) => parseJudgeUserMessage(r.messages[0]?.content ?? '')?.output).sort(),
    ).toEqual(['first text', 'second text']);
    if (result.ok) {
      expect(result.scores.quality_score).toBeCloseTo(7 / 10);
      expect(result.scores.per_output[0]).toMatchObject({
        file: 'output_00.txt',
        criteria_scores: { clarity: 4, tone: 3 },
      });
    }
  });

  it('gives each call the input its output answers, fenced as data, and instructions that say so', async () => {
    const model = fakeModel(() => valid(4, 3));
    const input = '# Variables\n\nq: Where is order 7?\n\n# Conversation\n\n(none)\n';
    const result = await runBuiltinJudge({
      outputs: [
        { file: 'output_00.txt', text: 'It shipped on Monday.', input },
        { file: 'output_01.txt', text: 'no input here' },
      ],
      rubricText,
      criteria,
      model,
    });
    expect(result.ok).toBe(true);
    const byOutput = new Map(
      model.requests.map((r) => [parseJudgeUserMessage(r.messages[0]?.content ?? '')?.output, r]),
    );
    const answered = byOutput.get('It shipped on Monday.');
    const withInput = judgeSystemPrompt(true);
    expect(answered?.system).toBe(withInput);
    expect(withInput).not.toBe(JUDGE_SYSTEM_PROMPT);
    expect(withInput).toMatch(/the input that text answers/);
    expect(withInput).toMatch(/INPUT markers/);
    const content = answered?.messages[0]?.content ?? '';
    expect(parseJudgeUserMessage(content)).toMatchObject({ input, output: 'It shipped on Monday.' });
    // The input comes after the rubric and before the text to score.
    expect(content.indexOf('</rubric>')).toBeLessThan(content.indexOf('⟦BEGIN INPUT'));
    expect(content.indexOf('⟦END INPUT')).toBeLessThan(content.indexOf('⟦BEGIN OUTPUT'));
    expect(content).not.toContain('input_00');
    // An output without an input is judged exactly as before.
    const plain = byOutput.get('no input here');
    expect(plain?.system).toBe(JUDGE_SYSTEM_PROMPT);
    expect(plain?.messages[0]?.content).not.toContain('INPUT');
  });

  it('averages k samples with sample indexes 0..k-1 and keeps the integer sets', async () => {
    const model = fakeModel((request) => (request.sampleIndex === 0 ? valid(4, 2) : valid(5, 3)));
    const result = await runBuiltinJudge({
      outputs: [{ file: 'a.txt', text: 'x' }],
      rubricText,
      criteria,
      model,
      samples: 2,
    });
    expect(model.requests.map((r) => r.sampleIndex).sort()).toEqual([0, 1]);
    expect(result.ok && result.scores.per_output[0]).toMatchObject({
      criteria_scores: { clarity: 4.5, tone: 2.5 },
      average: 3.5,
      samples: [
        { clarity: 4, tone: 2 },
        { clarity: 5, tone: 3 },
      ],
    });
  });

  it('retries malformed replies and fails after the allowed tries', async () => {
    const flaky = fakeModel((_, call) =>
      call === 1 ? 'Sure! Here you go.' : `\`\`\`json\n${valid(2, 2)}\n\`\`\``,
    );
    const ok = await runBuiltinJudge({
      outputs: [{ file: 'a.txt', text: 'x' }],
      rubricText,
      criteria,
      model: flaky,
    });
    expect(ok.ok).toBe(true);
    expect(flaky.requests).toHaveLength(2);

    const broken = fakeModel(() =>
      JSON.stringify({ criteria_scores: { clarity: 4, tone: 4, extra: 3 }, reasoning: 'x' }),
    );
    const failed = await runBuiltinJudge({
      outputs: [{ file: 'a.txt', text: 'x' }],
      rubricText,
      criteria,
      model: broken,
      maxAttempts: 3,
    });
    expect(broken.requests).toHaveLength(3);
    expect(failed).toMatchObject({
      ok: false,
      message: expect.stringMatching(/a\.txt: no usable reply after 3 tries.*unknown extra/),
    });
  });

  it('fails when the model call itself fails', async () => {
    const model = {
      complete: async () => {
        throw new Error('502 from upstream');
      },
    };
    const result = await runBuiltinJudge({
      outputs: [{ file: 'a.txt', text: 'x' }],
      rubricText,
      criteria,
      model,
    });
    expect(result).toEqual({ ok: false, message: 'a.txt: 502 from upstream' });
  });
});

describe('checkJudgeReply', () => {
  it.each([
    ['a score of 7', JSON.stringify({ criteria_scores: { clarity: 7, tone: 3 }, reasoning: 'x' })],
    ['a missing key', JSON.stringify({ criteria_scores: { clarity: 3 }, reasoning: 'x' })],
    ['no reasoning', JSON.stringify({ criteria_scores: { clarity: 3, tone: 3 }, reasoning: '' })],
    ['prose', 'I would give it a 4.'],
  ])('rejects %s', (_, text) => {
    expect(checkJudgeReply(text, criteria).ok).toBe(false);
  });

  const reply = (value: unknown) => JSON.stringify(value);

  it('accepts integer scores 1..5 for exactly the rubric keys, with trimmed reasoning', () => {
    expect(
      checkJudgeReply(
        `Sure: ${reply({ criteria_scores: { clarity: 5, tone: 1 }, reasoning: '  fine \n', extra: 1 })}`,
        criteria,
      ),
    ).toEqual({ ok: true, reply: { criteria_scores: { clarity: 5, tone: 1 }, reasoning: 'fine' } });
  });

  it('names what is wrong with a reply that does not fit', () => {
    const cases: [unknown, RegExp][] = [
      [{ criteria_scores: [4, 3], reasoning: 'x' }, /criteria_scores: expected an object of scores/],
      [{ reasoning: 'x' }, /criteria_scores: expected an object of scores/],
      [
        { criteria_scores: { clarity: 4.5, tone: 3 }, reasoning: 'x' },
        /criteria_scores\.clarity: expected an integer/,
      ],
      [
        { criteria_scores: { clarity: '4', tone: 3 }, reasoning: 'x' },
        /criteria_scores\.clarity: expected an integer/,
      ],
      [
        { criteria_scores: { clarity: 6, tone: 3 }, reasoning: 'x' },
        /criteria_scores\.clarity: expected a score from 1 to 5/,
      ],
      [{ criteria_scores: { clarity: 0, tone: 3 }, reasoning: 'x' }, /from 1 to 5/],
      [{ criteria_scores: { clarity: 4, tone: 3 } }, /reasoning: expected a string/],
      [{ criteria_scores: { clarity: 4, tone: 3 }, reasoning: '   ' }, /reasoning: expected some reasoning/],
      [{ criteria_scores: { clarity: 4 }, reasoning: 'x' }, /missing tone/],
      [{ criteria_scores: { clarity: 4, tone: 3, extra: 2 }, reasoning: 'x' }, /unknown extra/],
    ];
    for (const [value, problem] of cases) {
      const checked = checkJudgeReply(reply(value), criteria);
      expect(checked.ok, JSON.stringify(value)).toBe(false);
      if (!checked.ok) expect(checked.problem).toMatch(problem);
    }
    expect(checkJudgeReply('no object here', criteria)).toEqual({
      ok: false,
      problem: 'the reply holds no JSON object',
    });
  });
});
