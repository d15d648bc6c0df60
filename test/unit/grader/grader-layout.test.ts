import { describe, expect, it } from 'vitest';
import { formatModelLabel, graderEvidence, planGraderFiles } from '../../../src/grader/grader-layout.js';
import { outputFolderOf } from '../../../src/protocol/output-folder.js';

const TRANSCRIPT_0 = '# v1, sample 0: done after 2 turn(s)\n\n## Turn 1\n\n**Write** `w1`\n';
const TRANSCRIPT_1 = '# v1, sample 1: done after 3 turn(s)\n\n## Turn 1\n\n**Read** `r1`\n';

function agentSample(sample: number, transcript: string) {
  return {
    sample,
    text: `the checks' text ${sample}`,
    agent: {
      folder: outputFolderOf(
        `Done ${sample}.`,
        [
          {
            path: 'NOTES.md',
            status: 'created' as const,
            kind: 'file' as const,
            size: 3,
            text: `n${sample}\n`,
          },
        ],
        false,
      ),
      transcript,
    },
  };
}

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

describe('planGraderFiles for an agent case', () => {
  const request = { expectations: ['Writes NOTES.md'], vars: { version: '1.0' }, model: 'sim (simulated)' };

  it('holds each sample’s output folder and, for one sample, the record’s transcript as it is', () => {
    const files = planGraderFiles({ ...request, outputs: [agentSample(0, TRANSCRIPT_0)] });
    expect(files.map((f) => f.path)).toEqual([
      'outputs/output_00/final-message.md',
      'outputs/output_00/listing.json',
      'outputs/output_00/files/NOTES.md',
      'transcript.md',
      'expectations.json',
    ]);
    expect(files.find((f) => f.path === 'transcript.md')?.text).toBe(TRANSCRIPT_0);
    expect(files.map((f) => f.text).join('\n')).not.toContain('the checks');
  });

  it('with several samples names each transcript’s folder, and pairs inputs by folder number', () => {
    const files = planGraderFiles({
      ...request,
      input: 'the inputs',
      outputs: [agentSample(1, TRANSCRIPT_1), agentSample(0, TRANSCRIPT_0)],
    });
    expect(files.map((f) => f.path).filter((p) => !p.startsWith('outputs/'))).toEqual([
      'inputs/input_00.txt',
      'inputs/input_01.txt',
      'transcript.md',
      'expectations.json',
    ]);
    const transcript = files.find((f) => f.path === 'transcript.md')?.text ?? '';
    expect(transcript.indexOf(TRANSCRIPT_0)).toBeGreaterThan(0);
    expect(transcript.indexOf(TRANSCRIPT_1)).toBeGreaterThan(transcript.indexOf(TRANSCRIPT_0));
    expect(transcript).toContain('its outputs are in `outputs/output_01/`');
  });

  it('lets a PASS quote the folders’ files and the transcripts', () => {
    const evidence = graderEvidence({
      ...request,
      outputs: [agentSample(0, TRANSCRIPT_0), agentSample(1, TRANSCRIPT_1)],
    });
    expect(evidence.transcripts).toEqual([TRANSCRIPT_0, TRANSCRIPT_1]);
    expect(evidence.outputs).toEqual(expect.arrayContaining(['Done 0.', 'n0\n', 'Done 1.', 'n1\n']));
    expect(graderEvidence({ ...request, outputs: [{ sample: 0, text: 'plain' }] })).toEqual({
      outputs: ['plain'],
      transcripts: [],
    });
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
