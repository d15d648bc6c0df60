/** The experiment after loading: paths resolved, defaults applied, cases split. */
import type { CheckEntry, ExperimentFile, JudgeConfig, JudgeEntry, ModelEntry } from './schema.js';
import type { AgentTarget } from '../agent/agent-target.js';
import type { Problem } from '../errors.js';
import type { ChatMessage, StructuredOutput, ToolDefinition } from '../providers/types.js';

/**
 * `test` is the sealed split (docs/design/paired-acceptance.md): never evaluated by the loop, never
 * shown to the mutator.
 */
export type Split = 'train' | 'holdout' | 'test';

export interface Case {
  id: string;
  /** Var values as the template sees them (numbers and booleans stringified). */
  vars: Record<string, string>;
  /** Checks declared on this case only; the global ones live on the experiment. */
  checks: CheckEntry[];
  expectations: string[];
  split: Split;
  /**
   * The case's group (its `group:` key, or the var `search.group_by` names): cases of one group
   * may share an effect, so paired acceptance takes its interval on group means
   * (docs/design/paired-acceptance.md). Absent: the case is independent of the others.
   */
  group?: string;
  /** Where the case was declared, for error messages. */
  source: { file: string; line?: number };
  /**
   * docs/design/prompt-shapes.md: the conversation so far, sent after the template's messages
   * (templates rendered).
   */
  messages?: ChatMessage[];
  /** An agent case's own fixture folder, absolute (docs/design/agent-runs.md). */
  fixtures?: string;
}

/** `system`, `messages[i]` (0-based) or, for a path `prompt:`, `prompt`. */
export type PartName = string;

/** One part of the prompt an application sends (docs/design/prompt-shapes.md). */
export interface PromptPart {
  name: PartName;
  /** Where the part goes: the system prompt, or a template message of this role. */
  role: 'system' | 'user' | 'assistant';
  /** The template text as read (inline, or the file's content). */
  text: string;
  /** File-backed parts: the absolute path. Inline parts are fixed. */
  path?: string;
  /** The loop may change this part. */
  optimise: boolean;
}

/** What the generator is sent besides the cases' own messages (docs/design/prompt-shapes.md). */
export interface PromptShape {
  /** In request order: `system` first when present, then the template messages. */
  parts: PromptPart[];
  output?: StructuredOutput & { path: string };
  tools?: { path: string; definitions: ToolDefinition[] };
}

export interface RubricCriterion {
  /** The heading in snake_case: the key in `criteria_scores`. */
  key: string;
  title: string;
  weight: number;
  /**
   * Checklist items (`- [ ] …` lines under the criterion), answered yes/no (docs/design/judge-reliability.md);
   * absent: a 1–5 scale.
   */
  items?: string[];
}

export interface Rubric {
  path: string;
  text: string;
  criteria: RubricCriterion[];
}

export interface ResolvedModels {
  generator: ModelEntry;
  mutator: ModelEntry;
  /**
   * Present when the experiment has a rubric: one judge or a panel
   * (docs/design/judge-reliability.md).
   */
  judge?: JudgeConfig;
  /** Present when some case has expectations. */
  grader?: JudgeEntry;
}

/** A pool start's other prompt: its text, and where it came from (`p3 of run …`), for reviews. */
export interface StartSeed {
  text: string;
  origin: string;
}

export interface Experiment {
  name: string;
  description: string;
  /** Absolute path of experiment.yaml and its folder. */
  file: string;
  dir: string;
  /** The file as written, with defaults filled in. */
  config: ExperimentFile;
  /**
   * The first optimised part's file, and the loop's prompt: the one optimised part's text, or
   * with several the parts document of part-texts.ts (each part's file is in `shape.parts`).
   */
  promptPath: string;
  prompt: string;
  /** Every part, output and tools; a path `prompt:` is one user part named `prompt`. */
  shape: PromptShape;
  casesPath: string;
  cases: Case[];
  rubric?: Rubric;
  models: ResolvedModels;
  /** Global checks, applied to every case before the case's own. */
  checks: CheckEntry[];
  /** Present: every case is an agent case (docs/design/agent-runs.md). */
  agent?: AgentTarget;
  /**
   * More starting prompts (`run --from <run>/pool`): evaluated with the baseline, each a seed of
   * the pareto pool beside it (docs/design/pareto-search.md). Absent: the prompt alone.
   */
  seeds?: readonly StartSeed[];
  /** Non-fatal problems found while loading (unused vars, missing keys, …). */
  warnings: Problem[];
}
