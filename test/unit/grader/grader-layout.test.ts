import { describe, expect, it } from 'vitest';
import { formatModelLabel, planGraderFiles } from '../../../src/grader/grader-layout.js';

describe('planGraderFiles', () => {
  it('holds the outputs, a transcript of inputs and records, and the expectations — nothing else', () => {
    const files = planGraderFiles({
      expectations: ['Names a pain'],
      vars: { topic: 'Billing', audience: 'CTO\nat a SaaS' },
      model: 'anthropic / claude-x',
      outputs: [
        { sample: 0, text: 'first output here', stopReason: 'end_turn' },
        { sample: 2, text: 'third' },
      ],
    });
    expect(files.map((f) => f.path)).toEqual([
      'outputs/output_00.txt',
      'outputs/output_02.txt',
      'transcript.md',
      'expectations.json',
    ]);
    const transcript = files.find((f) => f.path === 'transcript.md')?.text ?? '';
    expect(transcript).toContain('- audience:\n\n  CTO\n  at a SaaS');
    expect(transcript).toContain('- topic: Billing');
    expect(transcript).toContain('anthropic / claude-x');
    expect(transcript).toContain(
      '- sample 0: `outputs/output_00.txt` (3 words, 17 characters, stopped: end_turn)',
    );
    expect(transcript).toContain('- sample 2: `outputs/output_02.txt`');
    expect(JSON.parse(files.find((f) => f.path === 'expectations.json')?.text ?? '')).toEqual([
      'Names a pain',
    ]);
  });

  it('under judging.inputs gives every output its copy of the case inputs at the same number', () => {
    const request = {
      expectations: ['Names a pain'],
      vars: { topic: 'Billing' },
      model: 'anthropic / claude-x',
      outputs: [
        { sample: 0, text: 'first' },
        { sample: 2, text: 'third' },
      ],
    };
    const plain = planGraderFiles(request);
    const files = planGraderFiles({ ...request, input: '# Variables\n\ntopic: Billing\n' });
    expect(files.map((f) => f.path)).toEqual([
      'outputs/output_00.txt',
      'outputs/output_02.txt',
      'inputs/input_00.txt',
      'inputs/input_02.txt',
      'transcript.md',
      'expectations.json',
    ]);
    for (const path of ['inputs/input_00.txt', 'inputs/input_02.txt'])
      expect(files.find((f) => f.path === path)?.text).toBe('# Variables\n\ntopic: Billing\n');
    expect(files.filter((f) => !f.path.startsWith('inputs/'))).toEqual(plain);
  });
});

describe('formatModelLabel', () => {
  it('names the model without paths of the run', () => {
    expect(formatModelLabel({ provider: 'anthropic', model: 'claude-x' })).toBe('anthropic / claude-x');
    expect(formatModelLabel({ provider: 'sim' })).toBe('sim (simulated)');
    expect(
      formatModelLabel({ provider: 'command', command: ['node', 'experiments/secret/model.mjs'] }),
    ).not.toContain('secret');
  });
});
