/**
 * Command-line overrides for `run`, `eval`, `resume` and `validate`
 * (docs/design/commands-and-exit-codes.md), applied to a loaded experiment as a pure function.
 * `--provider` swaps every model's provider; with `sim` an external judge or grader program is
 * replaced by the built-in one (and a note says so).
 */
import type { Problem } from '../errors.js';
import { AutoresearchError } from '../errors.js';
import { apiKeyEnvName } from '../providers/env.js';
import { providerRecord } from '../providers/registry.js';
import { isPanel, judgeMembers, roleModels } from './judge-panel.js';
import { isProgramEntry } from './program-entry.js';
import { ROLES, type Role } from './roles.js';
import type { JudgeEntry, ModelEntry, ProviderName } from './schema.js';
import type { Experiment } from './types.js';

export interface OverrideFlags {
  iterations?: string;
  hours?: string;
  usd?: string;
  patience?: string;
  target?: string;
  candidates?: string;
  samples?: string;
  judgeSamples?: string;
  concurrency?: string;
  seed?: string;
  provider?: string;
  /** `--batch` (run, resume); a resumed run's journaled overrides give it back as the string "true". */
  batch?: boolean | string;
}

export interface Overridden {
  experiment: Experiment;
  /** What was overridden, as recorded in the manifest and journal. */
  overrides: Record<string, unknown>;
  notes: string[];
}

export function parseNumberFlag(
  name: string,
  value: string,
  {
    integer = false,
    min = 0,
    max = Number.POSITIVE_INFINITY,
  }: { integer?: boolean; min?: number; max?: number } = {},
): number {
  const n = Number(value);
  const ok =
    value.trim() !== '' && Number.isFinite(n) && (!integer || Number.isInteger(n)) && n >= min && n <= max;
  if (!ok) {
    const kind = integer ? 'an integer' : 'a number';
    const range = max === Number.POSITIVE_INFINITY ? `>= ${min}` : `between ${min} and ${max}`;
    throw new AutoresearchError('E_USAGE', `--${name} "${value}" is not ${kind} ${range}`, {
      hint: `e.g. --${name} ${integer ? Math.max(1, min) : min}`,
    });
  }
  return n;
}

export function applyOverrides(experiment: Experiment, flags: OverrideFlags): Overridden {
  const overrides: Record<string, unknown> = {};
  const notes: string[] = [];
  const config = structuredClone(experiment.config);
  let models = structuredClone(experiment.models);
  const set = (key: string, value: unknown) => {
    overrides[key] = value;
  };
  if (flags.iterations !== undefined) {
    config.budget.iterations = parseNumberFlag('iterations', flags.iterations, { integer: true });
    set('iterations', config.budget.iterations);
  }
  if (flags.hours !== undefined) {
    config.budget.hours = parseNumberFlag('hours', flags.hours, { min: 0.001 });
    set('hours', config.budget.hours);
  }
  if (flags.usd !== undefined) {
    config.budget.usd = parseNumberFlag('usd', flags.usd, { min: 0.000001 });
    set('usd', config.budget.usd);
  }
  if (flags.patience !== undefined) {
    config.budget.patience = parseNumberFlag('patience', flags.patience, { integer: true, min: 1 });
    set('patience', config.budget.patience);
  }
  if (flags.target !== undefined) {
    config.budget.target = parseNumberFlag('target', flags.target, { max: 1 });
    set('target', config.budget.target);
  }
  if (flags.candidates !== undefined) {
    config.search.candidates = parseNumberFlag('candidates', flags.candidates, { integer: true, min: 1 });
    set('candidates', config.search.candidates);
  }
  if (flags.samples !== undefined) {
    config.search.samples = parseNumberFlag('samples', flags.samples, { integer: true, min: 1 });
    set('samples', config.search.samples);
  }
  if (flags.seed !== undefined) {
    config.search.seed = parseNumberFlag('seed', flags.seed, { integer: true, min: Number.MIN_SAFE_INTEGER });
    set('seed', config.search.seed);
    notes.push(
      '--seed sets the sampling and shuffle seed; the train/holdout split keeps the seed in experiment.yaml',
    );
  }
  if (flags.concurrency !== undefined) {
    config.concurrency = parseNumberFlag('concurrency', flags.concurrency, { integer: true, min: 1 });
    set('concurrency', config.concurrency);
  }
  if (flags.batch === true || flags.batch === 'true') {
    config.batch = true;
    set('batch', true);
  }
  if (flags.provider !== undefined) {
    const provider = flags.provider as ProviderName;
    if (experiment.shape.tools && providerRecord(provider).agentCli)
      throw new AutoresearchError(
        'E_USAGE',
        `--provider ${provider} cannot offer the experiment's tools (${experiment.config.tools}): it runs with its own tools off`,
        { hint: 'use an API provider, `command` or `sim` for an experiment with `tools:`' },
      );
    models = swapProvider(models, provider, notes);
    set('provider', provider);
  }
  if (flags.judgeSamples !== undefined) {
    const samples = parseNumberFlag('judge-samples', flags.judgeSamples, { integer: true, min: 1 });
    const judge = models.judge;
    const members = judge === undefined ? [] : judgeMembers(judge);
    if (judge !== undefined && members.some((m) => !isProgramEntry(m))) {
      const withSamples = (m: JudgeEntry): JudgeEntry => (isProgramEntry(m) ? m : { ...m, samples });
      models.judge = isPanel(judge)
        ? { ...judge, panel: judge.panel.map(withSamples) }
        : withSamples(judge as JudgeEntry);
    } else notes.push('--judge-samples ignored: the judge is an external program (or there is no rubric)');
    set('judgeSamples', samples);
  }
  return { experiment: { ...experiment, config, models }, overrides, notes };
}

/**
 * The loader's warnings that still hold once the overrides are applied: a missing key that no
 * model needs any more (`--provider sim`) is not worth a warning.
 */
export function warningsAfterOverrides(
  problems: readonly Problem[],
  before: Experiment,
  after: Experiment,
): Problem[] {
  const stillNeeded = new Set(keyVariables(after));
  const dropped = keyVariables(before).filter((name) => !stillNeeded.has(name));
  return problems.filter((p) => !dropped.some((name) => p.message.includes(name)));
}

/** The API key variables the model entries of these roles read. */
export function keyVariables(experiment: Experiment, roles: readonly Role[] = ROLES): string[] {
  const names = new Set<string>();
  for (const { entry } of roleModels(experiment.models, roles)) {
    const name = apiKeyEnvName(entry);
    if (name !== undefined) names.add(name);
  }
  return [...names];
}

/** The load option that makes key warnings for `--provider`'s choice (load-experiment.ts). */
export function providerOf(flags: Pick<OverrideFlags, 'provider'>): { provider?: string } {
  return flags.provider === undefined ? {} : { provider: flags.provider };
}

/** Every model on `provider` (what `--provider` does); a note for each program `sim` replaces. */
export function swapProvider(
  models: Experiment['models'],
  provider: ProviderName,
  notes: string[] = [],
): Experiment['models'] {
  const swap = (entry: ModelEntry): ModelEntry => ({ ...entry, provider });
  const swapJudge = (role: string, entry: JudgeEntry | undefined, model = 'sim'): JudgeEntry | undefined => {
    if (entry === undefined) return undefined;
    if (!isProgramEntry(entry)) return swap(entry);
    if (provider !== 'sim') return entry;
    notes.push(
      `--provider sim replaces the ${role} program (${entry.command.join(' ')}) with the built-in ${role}`,
    );
    return { provider: 'sim', model, temperature: 0 };
  };
  // A panel's programs become distinct simulated models, so the members still differ a little.
  const judge =
    models.judge !== undefined && isPanel(models.judge)
      ? {
          ...models.judge,
          panel: models.judge.panel.map((m, i) => swapJudge('judge', m, `sim-${i + 1}`) as JudgeEntry),
        }
      : swapJudge('judge', models.judge);
  const grader = swapJudge('grader', models.grader);
  if (provider === 'sim')
    notes.push('every model is simulated (--provider sim): scores show how the loop works, not real quality');
  return {
    generator: swap(models.generator),
    mutator: swap(models.mutator),
    ...(judge ? { judge } : {}),
    ...(grader ? { grader } : {}),
  };
}
