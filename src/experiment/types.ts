/** The experiment after loading: paths resolved, defaults applied, cases split. */
import type { CheckEntry, ExperimentFile, JudgeEntry, ModelEntry } from './schema.js';
import type { Problem } from '../errors.js';

/** `test` is the sealed split (SPEC 13): never evaluated by the loop, never shown to the mutator. */
export type Split = 'train' | 'holdout' | 'test';

export interface Case {
  id: string;
  /** Var values as the template sees them (numbers and booleans stringified). */
  vars: Record<string, string>;
  /** Checks declared on this case only; the global ones live on the experiment. */
  checks: CheckEntry[];
  expectations: string[];
  split: Split;
  /** Where the case was declared, for error messages. */
  source: { file: string; line?: number };
}

export interface RubricCriterion {
  /** The heading in snake_case: the key in `criteria_scores`. */
  key: string;
  title: string;
  weight: number;
}

export interface Rubric {
  path: string;
  text: string;
  criteria: RubricCriterion[];
}

export interface ResolvedModels {
  generator: ModelEntry;
  mutator: ModelEntry;
  /** Present when the experiment has a rubric. */
  judge?: JudgeEntry;
  /** Present when some case has expectations. */
  grader?: JudgeEntry;
}

export interface Experiment {
  name: string;
  description: string;
  /** Absolute path of experiment.yaml and its folder. */
  file: string;
  dir: string;
  /** The file as written, with defaults filled in. */
  config: ExperimentFile;
  promptPath: string;
  prompt: string;
  casesPath: string;
  cases: Case[];
  rubric?: Rubric;
  models: ResolvedModels;
  /** Global checks, applied to every case before the case's own. */
  checks: CheckEntry[];
  /** Non-fatal problems found while loading (unused vars, missing keys, …). */
  warnings: Problem[];
}
