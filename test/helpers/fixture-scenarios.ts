/**
 * The scenarios fixture runs are made of: each candidate is a set of prompt traits, each
 * iteration a list of candidates (or a forced error). `full` is one overnight run touching
 * every iteration status; `sparse` has no judge, a provider error with no files at all and an
 * iteration without mutation.json or decision.json.
 */
import { join } from 'node:path';
import { sha256Hex } from '../../src/sha256.js';

export const HOSTILE_SCRIPT = '</script><script>window.__pwned = 1; alert(1)</script>';
export const HOSTILE_IMG = '<img src=x onerror="window.__pwned = 2; alert(1)">';

export interface Traits {
  subject: boolean;
  personal: boolean;
  buzzwords: boolean;
  long: boolean;
  question: boolean;
  /** Tuned to the train cases: better there, worse on the holdout case. */
  overfit?: boolean;
  hostile?: boolean;
}
export interface CandidateSpec {
  hypothesis: string;
  traits: Traits;
  duplicate?: boolean;
}
export interface IterationPlan {
  candidates: CandidateSpec[];
  /** Forced outcome; otherwise `decide` picks keep/discard/gate_fail/holdout_fail. */
  error?: { kind: 'judge_error' | 'provider_error'; message: string; files: 'partial' | 'none' };
  noDecisionFiles?: boolean;
  strategy?: 'focused' | 'bold';
}

export const CASES = [
  {
    id: 'saas-cto',
    split: 'train',
    name: 'Priya',
    company: 'Meterly',
    pain: 'invoices that drift from metered usage',
    expectations: ['Names one concrete pain of usage-based billing', 'Ends with a question'],
  },
  {
    id: 'agency-founder',
    split: 'train',
    name: 'Tom',
    company: 'Northwind Studio',
    pain: 'chasing late client approvals',
    expectations: [],
  },
  {
    id: 'bank-cfo',
    split: 'holdout',
    name: 'Alma',
    company: 'Harbor Credit Union',
    pain: 'a month-end close that takes nine days',
    expectations: ['Names one concrete pain of the month-end close'],
  },
] as const;
export type FixtureCase = (typeof CASES)[number];
export const CRITERIA = ['call_to_action', 'clarity', 'personalization'] as const;
const BASE: Traits = { subject: true, personal: false, buzzwords: true, long: false, question: false };

export const FULL: IterationPlan[] = [
  { candidates: [{ hypothesis: 'baseline', traits: BASE }] },
  {
    candidates: [
      {
        hypothesis: "Open with the recipient's own pain instead of a product pitch",
        traits: { ...BASE, personal: true },
      },
    ],
  },
  {
    candidates: [
      {
        hypothesis: 'Add social proof: three customer names and a headline metric',
        traits: { ...BASE, personal: true, long: true },
      },
    ],
  },
  {
    candidates: [
      {
        hypothesis: 'Drop the subject line so the email reads like a personal note',
        traits: { ...BASE, personal: true, subject: false },
      },
    ],
  },
  {
    candidates: [
      {
        hypothesis: 'Ask for one specific 15-minute slot',
        traits: { ...BASE, personal: true, question: true },
      },
    ],
    error: {
      kind: 'judge_error',
      message: 'judge-scores.json was invalid after 3 attempts: output_01.txt scored twice',
      files: 'partial',
    },
  },
  {
    candidates: [
      {
        hypothesis: 'Remove buzzwords (synergy, leverage) that readers skim past',
        traits: { ...BASE, personal: true, buzzwords: false },
      },
      {
        hypothesis: 'Cut buzzwords and end with a concrete question about a short call </script><b>bold</b>',
        traits: { ...BASE, personal: true, buzzwords: false, question: true, hostile: true },
      },
    ],
  },
  {
    candidates: [
      {
        hypothesis: 'Add social proof: three customer names and a headline metric',
        traits: { ...BASE, personal: true, long: true },
        duplicate: true,
      },
    ],
    strategy: 'bold',
  },
  {
    candidates: [
      {
        hypothesis: "Mention the prospect's company in every paragraph",
        traits: { ...BASE, personal: true, buzzwords: false, question: true, overfit: true },
      },
    ],
    strategy: 'bold',
  },
];

export const SPARSE: IterationPlan[] = [
  { candidates: [{ hypothesis: 'baseline', traits: BASE }] },
  {
    candidates: [
      {
        hypothesis: 'Lead with the pain point and drop the buzzwords',
        traits: { ...BASE, personal: true, buzzwords: false },
      },
    ],
  },
  {
    candidates: [{ hypothesis: 'Shorter subject line', traits: BASE }],
    error: { kind: 'provider_error', message: 'HTTP 529 overloaded after 4 attempts', files: 'none' },
  },
  {
    candidates: [
      {
        hypothesis: 'Longer, warmer opening with customer stories',
        traits: { ...BASE, personal: true, buzzwords: false, long: true },
      },
    ],
    noDecisionFiles: true,
  },
];

export function fixtureManifest(id: string, dir: string): unknown {
  const digest = sha256Hex('fixture');
  return {
    version: 1,
    kind: 'run',
    runId: id,
    createdAt: '2026-11-29T22:30:00.000Z',
    toolVersion: '0.1.0',
    projectRoot: join(dir, '..', '..'),
    experiment: {
      name: 'cold-email',
      file: 'experiments/cold-email/experiment.yaml',
      prompt: 'experiments/cold-email/prompt.md',
      cases: 'experiments/cold-email/cases.yaml',
      rubric: 'rubrics/cold-email.md',
    },
    config: {},
    overrides: {},
    hashes: { prompt: digest, cases: digest, rubric: digest, checks: digest },
    caseHashes: Object.fromEntries(CASES.map((c) => [c.id, sha256Hex(c.id)])),
    rubricCriteria: [...CRITERIA],
    checks: [{ type: 'starts-with', value: 'Subject:', gate: true }],
    models: {},
    git: { base: 'c0ffee'.padEnd(40, '0'), branch: `autoresearch/cold-email/${id}` },
  };
}
