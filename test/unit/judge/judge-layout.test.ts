import { describe, expect, it } from 'vitest';
import { outputFileName, planJudgeLayout } from '../../../src/judge/judge-layout.js';

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

  it('widens the numbering for more than 100 outputs', () => {
    expect(outputFileName(3, 10)).toBe('output_03.txt');
    expect(outputFileName(7, 101)).toBe('output_007.txt');
  });
});
