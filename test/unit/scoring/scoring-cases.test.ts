import { describe, expect, it } from 'vitest';
import type { Case } from '../../../src/experiment/types.js';
import { toScoringCases } from '../../../src/scoring/scoring-cases.js';

describe('toScoringCases', () => {
  it('puts the global checks before the case’s own, with defaults', () => {
    const cases: Case[] = [
      {
        id: 'a',
        vars: {},
        checks: [{ type: 'icontains', value: 'billing', weight: 2 }],
        expectations: ['Names a pain'],
        split: 'holdout',
        source: { file: 'cases.yaml' },
      },
    ];
    expect(toScoringCases([{ type: 'starts-with', value: 'Subject:', gate: true }], cases)).toEqual([
      {
        id: 'a',
        split: 'holdout',
        checks: [
          { name: 'starts-with: Subject:', weight: 1, gate: true },
          { name: 'icontains: billing', weight: 2, gate: false },
        ],
        expectations: ['Names a pain'],
      },
    ]);
  });
});
