import { describe, expect, it } from 'vitest';
import { formatGradeLine, runBuiltinGrader } from '../../../src/grader/builtin-grader.js';
import { GRADER_SYSTEM_PROMPT, graderSystemPrompt } from '../../../src/grader/grader-prompt.js';
import { parseGraderUserMessage } from '../../../src/protocol/grading.js';
import type { CompletionRequest, CompletionResult } from '../../../src/providers/types.js';

const outputs = [
  { file: 'outputs/output_00.txt', text: 'Usage-based billing makes forecasting hard. Call Thursday?' },
];
const expectations = ['Names a pain of usage-based billing', 'Mentions GDPR'];

function model(replies: string[]) {
  const requests: CompletionRequest[] = [];
  return {
    requests,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      requests.push(request);
      return {
        text: replies[requests.length - 1] ?? '',
        usage: { inputTokens: 1, outputTokens: 1 },
        costUsd: 0,
        latencyMs: 0,
      };
    },
  };
}

const reply = (first: string) =>
  JSON.stringify({
    expectations: [
      { text: first, passed: true, evidence: '"Usage-based billing makes forecasting hard."' },
      { text: 'Mentions GDPR', passed: true, evidence: '"We are GDPR compliant."' },
    ],
  });

describe('runBuiltinGrader on an agent case', () => {
  const transcript = '## Turn 1\n\nResult of `call_1`:\n\n```\n14 tests passed, 0 failed\n```\n';
  const files = [
    { file: 'outputs/output_00/final-message.md', text: 'All done.' },
    { file: 'outputs/output_00/files/NOTES.md', text: 'The export button works again.' },
  ];

  it('is told it grades an agent’s transcript and files, and a PASS may quote the transcript', async () => {
    const graded = JSON.stringify({
      expectations: [
        { text: 'Runs the tests', passed: true, evidence: '"14 tests passed, 0 failed"' },
        { text: 'Fixes export', passed: true, evidence: '"The export button works again."' },
        { text: 'Mentions GDPR', passed: true, evidence: '"We are GDPR compliant, always."' },
      ],
    });
    const fake = model([graded]);
    const result = await runBuiltinGrader({
      expectations: ['Runs the tests', 'Fixes export', 'Mentions GDPR'],
      transcript,
      outputs: files,
      agent: true,
      model: fake,
    });
    expect(fake.requests[0]?.system).toBe(graderSystemPrompt(false, true));
    expect(fake.requests[0]?.system).toContain('listing.json');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.grading.expectations.map((e) => e.passed)).toEqual([true, true, false]);
    expect(result.grading.expectations[2]?.flag).toMatch(/neither in an output nor in the transcript/);
  });
});

describe('runBuiltinGrader', () => {
  it('sends one fenced request and verifies the evidence before returning', async () => {
    const fake = model([reply(expectations[0] as string)]);
    const result = await runBuiltinGrader({ expectations, transcript: '# Transcript', outputs, model: fake });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.system).toBe(GRADER_SYSTEM_PROMPT);
    expect(parseGraderUserMessage(fake.requests[0]?.messages[0]?.content ?? '')).toEqual({
      expectations,
      transcript: '# Transcript',
      outputs,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.grading.expectations.map((e) => e.passed)).toEqual([true, false]);
    expect(result.grading.expectations[1]?.flag).toMatch(/does not occur/);
    expect(formatGradeLine(result.grading)).toBe('GRADE pass_rate=0.5000 (1/2 passed)');
  });

  it('sends the case’s inputs once however many outputs share them, and never takes a quote from them', async () => {
    const input = '# Variables\n\nq: We are GDPR compliant.\n\n# Conversation\n\n(none)\n';
    const inputs = [
      { file: 'inputs/input_00.txt', text: input },
      { file: 'inputs/input_01.txt', text: input },
    ];
    const twoOutputs = [
      ...outputs,
      { file: 'outputs/output_01.txt', text: 'Usage-based billing makes forecasting hard, again.' },
    ];
    const fake = model([reply(expectations[0] as string)]);
    const result = await runBuiltinGrader({
      expectations,
      transcript: '# Transcript',
      outputs: twoOutputs,
      inputs,
      model: fake,
    });
    const request = fake.requests[0];
    expect(request?.system).toBe(graderSystemPrompt(true));
    expect(request?.system).toMatch(/input file/);
    expect(request?.system).not.toBe(GRADER_SYSTEM_PROMPT);
    const content = request?.messages[0]?.content ?? '';
    expect(content.split(input)).toHaveLength(2);
    expect(content).toContain('Input files: inputs/input_00.txt, inputs/input_01.txt');
    expect(parseGraderUserMessage(content)).toEqual({
      expectations,
      transcript: '# Transcript',
      outputs: twoOutputs,
      inputs,
    });
    // "We are GDPR compliant." is in the input, not in an output: no evidence.
    expect(result.ok && result.grading.expectations.map((e) => e.passed)).toEqual([true, false]);
  });

  it('retries a reply that rewords an expectation, then gives up', async () => {
    const fake = model(['not json', reply('Names a pain'), reply(expectations[0] as string)]);
    expect((await runBuiltinGrader({ expectations, transcript: '', outputs, model: fake })).ok).toBe(true);
    expect(fake.requests).toHaveLength(3);

    const stubborn = model([reply('Names a pain'), reply('Names a pain'), reply('Names a pain')]);
    const failed = await runBuiltinGrader({ expectations, transcript: '', outputs, model: stubborn });
    expect(failed).toMatchObject({
      ok: false,
      message: /no usable reply after 3 tries: .*missing or was reworded/,
    });
  });
});
