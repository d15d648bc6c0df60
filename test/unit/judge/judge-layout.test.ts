import { describe, expect, it } from 'vitest';
import { planJudgeLayout } from '../../../src/judge/judge-layout.js';
import { outputFolderOf } from '../../../src/protocol/output-folder.js';
import { outputFileName } from '../../../src/protocol/review-files.js';

const outputs = [
  { caseId: 'saas-cto', sample: 0, text: 'alpha' },
  { caseId: 'saas-cto', sample: 1, text: 'beta' },
  { caseId: 'dental', sample: 0, text: 'gamma' },
  { caseId: 'dental', sample: 1, text: 'delta' },
];

describe('planJudgeLayout', () => {
  it('holds exactly one neutral file per output plus the rubric, and maps each back', () => {
    const layout = planJudgeLayout(outputs, '# Rubric', 5);
    expect(layout.files.map((f) => f.path)).toEqual([
      'outputs/output_00.txt',
      'outputs/output_01.txt',
      'outputs/output_02.txt',
      'outputs/output_03.txt',
      'rubric.md',
    ]);
    for (const entry of layout.map) {
      const file = layout.files.find((f) => f.path === `outputs/${entry.file}`);
      const source = outputs.find((o) => o.caseId === entry.case_id && o.sample === entry.sample);
      expect(file?.text).toBe(source?.text);
    }
    expect(new Set(layout.map.map((m) => `${m.case_id}.${m.sample}`)).size).toBe(4);
    expect(layout.files.map((f) => f.path).join(' ')).not.toMatch(/saas|dental/);
  });

  it('shuffles with the seed', () => {
    const orders = [1, 2, 3, 4, 5, 6].map((seed) =>
      planJudgeLayout(outputs, '', seed)
        .map.map((m) => m.case_id + m.sample)
        .join(),
    );
    expect(new Set(orders).size).toBeGreaterThan(1);
    expect(planJudgeLayout(outputs, '', 9).map).toEqual(planJudgeLayout(outputs, '', 9).map);
  });

  it('under judging.inputs puts each output’s case inputs at the output’s number, and nothing else changes', () => {
    const withInputs = outputs.map((o) => ({ ...o, input: `inputs of ${o.caseId}` }));
    const layout = planJudgeLayout(withInputs, '# Rubric', 5);
    expect(layout.files.map((f) => f.path).sort()).toEqual([
      'inputs/input_00.txt',
      'inputs/input_01.txt',
      'inputs/input_02.txt',
      'inputs/input_03.txt',
      'outputs/output_00.txt',
      'outputs/output_01.txt',
      'outputs/output_02.txt',
      'outputs/output_03.txt',
      'rubric.md',
    ]);
    const texts = new Map(layout.files.map((f) => [f.path, f.text]));
    for (const entry of layout.map) {
      const number = entry.file.replace(/^output_/, '');
      expect(texts.get(`inputs/input_${number}`)).toBe(`inputs of ${entry.case_id}`);
    }
    // The same shuffle, the same outputs and rubric as without inputs.
    const plain = planJudgeLayout(outputs, '# Rubric', 5);
    expect(layout.map).toEqual(plain.map);
    expect(layout.files.filter((f) => !f.path.startsWith('inputs/'))).toEqual(plain.files);
  });

  it('widens the numbering for more than 100 outputs', () => {
    expect(outputFileName(3, 10)).toBe('output_03.txt');
    expect(outputFileName(7, 101)).toBe('output_007.txt');
  });

  it('lays an agent case out as its folder output_NN/, maps the folder back, and pairs its input', () => {
    const agentOutputs = ['ada', 'bo'].map((caseId) => ({
      caseId,
      sample: 0,
      text: `the checks' text of ${caseId}`,
      folder: outputFolderOf(
        `Wrote NOTES.md for ${caseId}.`,
        [
          {
            path: 'NOTES.md',
            status: 'created' as const,
            kind: 'file' as const,
            size: 5,
            text: `${caseId}\n`,
          },
        ],
        false,
      ),
      input: `inputs of ${caseId}`,
    }));
    const layout = planJudgeLayout(agentOutputs, '# Rubric', 5);
    expect(layout.files.map((f) => f.path)).toEqual([
      'outputs/output_00/final-message.md',
      'outputs/output_00/listing.json',
      'outputs/output_00/files/NOTES.md',
      'inputs/input_00.txt',
      'outputs/output_01/final-message.md',
      'outputs/output_01/listing.json',
      'outputs/output_01/files/NOTES.md',
      'inputs/input_01.txt',
      'rubric.md',
    ]);
    expect(layout.map.map((m) => m.file)).toEqual(['output_00', 'output_01']);
    for (const entry of layout.map) {
      const notes = layout.files.find((f) => f.path === `outputs/${entry.file}/files/NOTES.md`);
      expect(notes?.text).toBe(`${entry.case_id}\n`);
      expect(layout.files.find((f) => f.path === `outputs/${entry.file}/final-message.md`)?.text).toBe(
        `Wrote NOTES.md for ${entry.case_id}.`,
      );
    }
    // The checks' text is not what the judge gets.
    expect(layout.files.map((f) => f.text).join('\n')).not.toContain('the checks');
  });
});
