/**
 * The shapes of the user's files (docs/design/experiment-format.md). These zod schemas are the
 * single source of the types: everything else uses `z.infer` of them. Objects are strict — an
 * unknown key is an error, reported with a "did you mean" by the loader.
 */
import * as z from 'zod';
import { PROVIDERS } from '../providers/registry.js';

export { isProgramEntry } from './program-entry.js';
export { PROVIDERS } from '../providers/registry.js';
export { ROLES, type Role } from './roles.js';

export const ProviderName = z.enum(PROVIDERS);
export type ProviderName = z.infer<typeof ProviderName>;

const positiveInt = z.number().int().min(1);

export const Price = z.strictObject({
  input_per_mtok: z.number().min(0),
  output_per_mtok: z.number().min(0),
  /** Input written to the provider's prompt cache; absent: the input price. */
  cache_write_per_mtok: z.number().min(0).optional(),
  /** Input read from the provider's prompt cache; absent: the input price. */
  cache_read_per_mtok: z.number().min(0).optional(),
});
export type Price = z.infer<typeof Price>;

/** One model a role talks to. Which keys matter depends on the provider (checked by the loader). */
export const ModelEntry = z.strictObject({
  provider: ProviderName,
  model: z.string().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: positiveInt.optional(),
  /** Judge only: independent scorings per output, averaged. */
  samples: positiveInt.optional(),
  /** Anthropic without `/v1`, OpenAI-compatible with `/v1`. */
  base_url: z.url().optional(),
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
  timeout_s: z.number().positive().optional(),
  max_retries: z.number().int().min(0).optional(),
  concurrency: positiveInt.optional(),
  price: Price.optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  /** provider `command`: argv, never a shell string. */
  command: z.array(z.string().min(1)).min(1).optional(),
  /** provider `command`: pass the prompt on stdin (default) or as a file path (`{prompt_file}` in argv). */
  input: z.enum(['stdin', 'file']).optional(),
  /** provider `claude-cli` / `codex-cli`: path to the user's binary (default `claude` / `codex` on PATH). */
  binary: z.string().min(1).optional(),
  /** A system prompt for this role's calls (the generator's user message is always the rendered prompt). */
  system: z.string().optional(),
});
export type ModelEntry = z.infer<typeof ModelEntry>;

/**
 * An external judge or grader program speaking the docs/design/judge-protocol.md,
 * docs/design/grader-protocol.md protocol.
 */
export const ProgramEntry = z.strictObject({
  command: z.array(z.string().min(1)).min(1),
  timeout_s: z.number().positive().optional(),
});
export type ProgramEntry = z.infer<typeof ProgramEntry>;

export const JudgeEntry = z.union([ModelEntry, ProgramEntry]);
export type JudgeEntry = z.infer<typeof JudgeEntry>;

/**
 * How a panel's scores for one output and criterion become one (docs/design/judge-reliability.md).
 */
export const AGGREGATES = ['median', 'mean'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

/**
 * Several judges, each in its own sandbox, their scores aggregated
 * (docs/design/judge-reliability.md).
 */
export const JudgePanel = z.strictObject({
  panel: z.array(JudgeEntry).min(2, 'a panel needs at least two judges'),
  aggregate: z.enum(AGGREGATES).default('median'),
});
export type JudgePanel = z.infer<typeof JudgePanel>;

/** `models.judge`: one judge (a model or a program), or a panel of them. */
export const JudgeConfig = z.union([ModelEntry, ProgramEntry, JudgePanel]);
export type JudgeConfig = z.infer<typeof JudgeConfig>;

export const Models = z.strictObject({
  generator: ModelEntry,
  /** Defaults to the generator's entry. */
  mutator: ModelEntry.optional(),
  /** Defaults to the generator's entry at temperature 0; used only with a rubric. */
  judge: JudgeConfig.optional(),
  /** Defaults to the judge's model entry; used only for cases with expectations. */
  grader: JudgeEntry.optional(),
});
export type Models = z.infer<typeof Models>;

/**
 * One deterministic check (docs/design/checks.md). `type` may carry a `not-` prefix; the per-type
 * meaning of `value`, `min`, `max` is checked against the check registry by the loader.
 */
export const CheckEntry = z.strictObject({
  type: z.string().min(1),
  value: z.unknown().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  threshold: z.number().min(0).max(1).optional(),
  weight: z.number().min(0, 'weights must be >= 0').optional(),
  gate: z.boolean().optional(),
  name: z.string().min(1).optional(),
  timeout_s: z.number().positive().optional(),
  /**
   * `tool-call` only (docs/design/prompt-shapes.md): the arguments the call must have (a subset).
   */
  arguments: z.unknown().optional(),
  /**
   * Agent experiments only (docs/design/checks.md "Checks on an agent's files and actions"): the
   * workspace path (or glob) whose content a text check reads instead of the output.
   */
  file: z.string().optional(),
  /** `command` in an agent experiment: `workspace` runs it in a copy of the finished workspace. */
  in: z.string().optional(),
});
export type CheckEntry = z.infer<typeof CheckEntry>;

export const Weights = z.strictObject({
  checks: z.number().min(0).default(0.4),
  judge: z.number().min(0).default(0.4),
  expectations: z.number().min(0).default(0.2),
});
export type Weights = z.infer<typeof Weights>;

/**
 * docs/design/paired-acceptance.md: per-case paired statistics (version 2), or version 1's margin
 * on whole-set means.
 */
export const ACCEPTANCES = ['paired', 'margin'] as const;
export type Acceptance = (typeof ACCEPTANCES)[number];

/**
 * docs/design/pareto-search.md: a pool of prompts searched from its Pareto front (version 2), or version 1's
 * single incumbent.
 */
export const SEARCH_STRATEGIES = ['pareto', 'greedy'] as const;
export type SearchName = (typeof SEARCH_STRATEGIES)[number];

export const Search = z.strictObject({
  /** pareto: proposals per iteration, each from its own parent; greedy: proposals against the incumbent. */
  candidates: positiveInt.default(1),
  samples: positiveInt.default(1),
  holdout: z.number().min(0).max(0.9).default(0.25),
  /**
   * The sealed test share (docs/design/paired-acceptance.md): scored only by the final evaluation and
   * `eval --split test`.
   */
  test: z.number().min(0).max(0.9).default(0),
  /**
   * How a candidate must beat the incumbent (docs/design/paired-acceptance.md). Absent: read from
   * `min_improvement` as version 1 wrote it (`auto` → paired, a number → margin); see acceptanceOf.
   */
  acceptance: z.enum(ACCEPTANCES).optional(),
  /** paired: one-sided confidence of the interval on the mean per-case difference. */
  confidence: z.number().min(0.5).max(0.999).default(0.9),
  /** paired: the smallest gain worth keeping, on the 0..1 score scale. */
  min_effect: z.number().min(0).max(1).default(0.01),
  /** paired: more samples per case for both sides when the first look is unclear (0: none). */
  retest: z.number().int().min(0).default(1),
  /**
   * paired: the var whose value is each case's group (docs/design/paired-acceptance.md, "Groups of
   * cases"); a case's own `group:` key wins.
   */
  group_by: z.string().min(1).optional(),
  /** paired: train cases a proposal is screened on first (default min(8, train cases)). */
  minibatch: positiveInt.optional(),
  /** margin (version 1): the gain a candidate must beat, or auto: twice the baseline's noise. */
  min_improvement: z.union([z.number().min(0), z.literal('auto')]).default('auto'),
  noise_repeats: positiveInt.default(3),
  confirm: z.boolean().default(false),
  max_growth: z.number().min(1).default(1.5),
  bold_after: positiveInt.default(3),
  guidance: z.string().default(''),
  seed: z.number().int().default(1),
  /** Absent: pareto under paired acceptance, greedy under margin (see searchStrategyOf). */
  strategy: z.enum(SEARCH_STRATEGIES).optional(),
  /**
   * pareto: iterations between two merges of complementary front members
   * (docs/design/pareto-search.md).
   */
  merge_every: positiveInt.default(5),
});
export type Search = z.infer<typeof Search>;

export const Budget = z.strictObject({
  iterations: z.number().int().min(0).default(30),
  hours: z.number().positive().default(8),
  usd: z.number().positive().optional(),
  patience: positiveInt.default(10),
  target: z.number().min(0).max(1).optional(),
});
export type Budget = z.infer<typeof Budget>;

/**
 * How the judge and grader are kept apart from the run (docs/design/isolation.md): bubblewrap, or
 * only a process.
 */
export const ISOLATIONS = ['os', 'process'] as const;
export type Isolation = (typeof ISOLATIONS)[number];

/**
 * What a sandboxed program may use under `os` isolation (docs/design/isolation.md "Limits"), in
 * MB; absent keys take src/sandbox/sandbox-limits.ts DEFAULT_LIMITS. `memory_mb` per process
 * (below 64 MB Node no longer starts), `tmp_mb` the private /tmp (held in memory), `disk_mb`
 * what the program may add to its folder on disk, and the largest file it may write anywhere.
 */
export const SandboxLimitsConfig = z.strictObject({
  memory_mb: z.number().int().min(64).optional(),
  tmp_mb: positiveInt.optional(),
  disk_mb: positiveInt.optional(),
});
export type SandboxLimitsConfig = z.infer<typeof SandboxLimitsConfig>;

/**
 * Settings for the judge and the grader alike (docs/design/prompt-shapes.md "Judging settings").
 * `isolation` absent: `os` where bubblewrap works, else `process` with a warning
 * (src/sandbox/isolation.ts).
 */
export const Judging = z.strictObject({
  isolation: z.enum(ISOLATIONS).optional(),
  limits: SandboxLimitsConfig.optional(),
  /** true: each case's inputs go to the judge and grader too (src/protocol/case-inputs.ts); absent: false. */
  inputs: z.boolean().optional(),
  /** Drift anchors (docs/design/judge-reliability.md): baseline outputs re-judged fresh; 0 turns them off; absent: 4 (src/loop/judge-anchors.ts). */
  anchors: z.number().int().min(0).optional(),
  /** Iterations between two anchor checks; absent: 5. */
  anchor_every: positiveInt.optional(),
});
export type Judging = z.infer<typeof Judging>;

/**
 * A part's text (docs/design/prompt-shapes.md): a string is inline (fixed), `{file}` a file
 * (optimisable).
 */
export const PartText = z.union([z.string(), z.strictObject({ file: z.string().min(1) })]);
export type PartText = z.infer<typeof PartText>;

/**
 * `prompt:` as parts (docs/design/prompt-shapes.md): a system prompt and template messages, sent in
 * this order.
 */
export const PromptParts = z.strictObject({
  system: PartText.optional(),
  messages: z.array(z.strictObject({ role: z.enum(['user', 'assistant']), content: PartText })).optional(),
  /** Part names the loop may change; default: every file-backed part. */
  optimise: z.array(z.string().min(1)).optional(),
});
export type PromptParts = z.infer<typeof PromptParts>;

/** Where an agent experiment's optimised file goes in each workspace (docs/design/agent-runs.md). */
export const AGENT_PLACES = ['skill', 'instructions', 'agent', 'system'] as const;
export type AgentPlace = (typeof AGENT_PLACES)[number];

/**
 * `agent:` (docs/design/agent-runs.md): every case is a task an agent carries out with its tools in
 * a fresh workspace; the generator's provider says which agent (claude-cli, codex-cli or sim).
 */
export const AgentConfig = z.strictObject({
  place: z.enum(AGENT_PLACES).default('instructions'),
  /** The skill's or agent definition's name: a folder or file name in the workspace. */
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'use lowercase letters, digits and dashes (at most 64)')
    .optional(),
  /** A folder of the skill's other files, copied beside SKILL.md. */
  files: z.string().min(1).optional(),
  /** The user message: a template over the case's vars. */
  task: z.string().min(1).default('{{task}}'),
  /** A folder copied into every workspace, before the case's own. */
  fixtures: z.string().min(1).optional(),
  git: z.boolean().default(false),
  /** The tools the agent may use, in its CLI's own names; absent: the CLI's defaults. */
  tools: z
    .array(z.string().regex(/^[A-Za-z0-9_*():. -]{1,200}$/, 'a tool name'))
    .min(1)
    .optional(),
  max_turns: positiveInt.max(1000).default(30),
  timeout_s: z.number().positive().max(86_400).default(600),
});
export type AgentConfig = z.infer<typeof AgentConfig>;

export const ExperimentFile = z.strictObject({
  name: z.string().regex(/^[a-z0-9-]+$/, 'use lowercase letters, digits and dashes'),
  description: z.string().optional(),
  /** A path (one user-message template) or parts (docs/design/prompt-shapes.md). */
  prompt: z.union([z.string().min(1), PromptParts]),
  /**
   * Structured output: a JSON Schema file the generator's answers must follow
   * (docs/design/prompt-shapes.md).
   */
  output: z.strictObject({ json_schema: z.string().min(1) }).optional(),
  /**
   * A JSON or YAML file listing the tools offered to the generator (docs/design/prompt-shapes.md).
   */
  tools: z.string().min(1).optional(),
  cases: z.string().min(1),
  rubric: z.string().min(1).optional(),
  models: Models,
  checks: z.array(CheckEntry).default([]),
  scoring: z.strictObject({ weights: Weights.prefault({}) }).prefault({}),
  search: Search.prefault({}),
  budget: Budget.prefault({}),
  concurrency: positiveInt.default(8),
  judging: Judging.prefault({}),
  /**
   * A program run when a run stops (docs/design/cost-engine.md), with the run's summary JSON on
   * stdin: an argv, never a shell string; relative paths resolve against the experiment's folder.
   */
  on_finish: z
    .array(z.string().min(1, 'expected a non-empty argument'), {
      error: 'expected an argv: a list of strings',
    })
    .min(1, 'expected at least the program to run')
    .optional(),
  /**
   * docs/design/cost-engine.md: generator, built-in judge and grader calls through the providers'
   * batch APIs.
   */
  batch: z.boolean().optional(),
  agent: AgentConfig.optional(),
});
export type ExperimentFile = z.infer<typeof ExperimentFile>;

/**
 * One tool of a `tools:` file (docs/design/prompt-shapes.md); `parameters` is the JSON Schema of
 * its arguments.
 */
export const ToolEntry = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'use 1 to 64 letters, digits, "_" and "-" (the APIs allow no more)'),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()),
});
export type ToolEntry = z.infer<typeof ToolEntry>;

export const CASE_ID = /^[A-Za-z0-9_.-]+$/;
/**
 * A case id names files (`outputs/<id>.<sample>.txt`), so it must be a usable file name:
 * not `.` or `..`, and short enough to leave room for the suffix under the usual 255-byte
 * limit (the id is ASCII, so characters are bytes).
 */
export const CASE_ID_MAX_BYTES = 200;
export const VarValue = z.union([z.string(), z.number(), z.boolean()]);

const CaseId = z
  .string()
  .regex(CASE_ID, 'use letters, digits, "_", "." and "-"')
  .max(CASE_ID_MAX_BYTES, `at most ${CASE_ID_MAX_BYTES} characters: the id names the case's output files`)
  .refine((id) => id !== '.' && id !== '..', '`.` and `..` name folders, so they cannot be case ids');

/** A call in a case's history: `arguments` as a mapping, as the model produced them. */
const ToolCallEntry = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
});

/** One turn of a case's conversation so far (docs/design/prompt-shapes.md). */
export const CaseMessage = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('user'), content: z.string() }),
  z.strictObject({
    role: z.literal('assistant'),
    content: z.string().default(''),
    tool_calls: z.array(ToolCallEntry).min(1).optional(),
  }),
  z.strictObject({ role: z.literal('tool'), tool_call_id: z.string().min(1), content: z.string() }),
]);
export type CaseMessage = z.infer<typeof CaseMessage>;

export const CaseEntry = z.strictObject({
  id: CaseId.optional(),
  vars: z.record(z.string(), VarValue).default({}),
  /** The conversation so far, sent after the template's messages (docs/design/prompt-shapes.md). */
  messages: z.array(CaseMessage).min(1).optional(),
  checks: z.array(CheckEntry).optional(),
  expectations: z.array(z.string().min(1)).optional(),
  split: z.enum(['train', 'holdout', 'test']).optional(),
  /**
   * The case's group: cases of one kind that may share an effect (docs/design/paired-acceptance.md,
   * "Groups of cases"). Overrides `search.group_by` for this case.
   */
  group: z.union([z.string().min(1), z.number()]).optional(),
  /** An agent case's own fixture folder, relative to the cases file (docs/design/agent-runs.md). */
  fixtures: z.string().min(1).optional(),
  /**
   * Whether the agent should use the experiment's skill for this case's task: a `skill-used`
   * (true) or `not-skill-used` (false) check on the case (docs/agents.md "Tuning when a skill triggers").
   */
  should_trigger: z.boolean().optional(),
});
export type CaseEntry = z.infer<typeof CaseEntry>;
