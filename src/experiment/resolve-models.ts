/**
 * Model entries per role (docs/design/experiment-format.md): provider-specific requirements, the
 * defaults (mutator = generator; judge = generator at temperature 0 when a rubric exists; grader =
 * the judge's model, else the generator's, when some case has expectations) and missing API keys,
 * which are only warnings here — `run`, `eval` and `validate --ping` refuse instead.
 */
import type { Problem } from '../errors.js';
import { apiProviderList, providerRecord, providersWhere } from '../providers/registry.js';
import { formatKeyPath, type KeyPath } from './key-path.js';
import { roleModels } from './judge-panel.js';
import { agentNeeder, describeMissingKey, findMissingKeyModels, missingKeyHint } from './missing-keys.js';
import { ROLES, type Role } from './roles.js';
import { swapProvider } from './overrides.js';
import type { JudgeConfig, JudgeEntry, ModelEntry, ProviderName } from './schema.js';
import type { ResolvedModels } from './types.js';
import type { Position } from './yaml-source.js';

export type ModelOrigin = 'configured' | 'defaulted from generator' | 'defaulted from judge';

export interface ConfiguredModels {
  generator?: ModelEntry | undefined;
  mutator?: ModelEntry | undefined;
  judge?: JudgeConfig | undefined;
  grader?: JudgeEntry | undefined;
}

interface Where {
  file: string;
  locate(path: KeyPath): Position;
}

/** Keys that mean something only for some providers. */
const ONLY_FOR: Partial<Record<keyof ModelEntry, readonly string[]>> = {
  command: ['command'],
  input: ['command'],
  binary: providersWhere((record) => record.agentCli === true),
};

export function validateModelEntries(models: ConfiguredModels, where: Where): Problem[] {
  const problems: Problem[] = [];
  const error = (path: KeyPath, message: string, hint?: string): void => {
    problems.push({
      severity: 'error',
      location: { file: where.file, ...where.locate(path) },
      keyPath: formatKeyPath(path),
      message,
      ...(hint ? { hint } : {}),
    });
  };
  for (const { role, entry, path: base } of roleModels(models)) {
    const example = providerRecord(entry.provider).modelExample;
    if (example !== undefined && entry.model === undefined) {
      error(base, `provider \`${entry.provider}\` needs \`model\``, `e.g. model: ${example}`);
    }
    if (entry.provider === 'command' && entry.command === undefined) {
      error(
        base,
        'provider `command` needs `command` (the program and its arguments as a list)',
        'e.g. command: [node, my-model.mjs]',
      );
    }
    for (const [key, providers] of Object.entries(ONLY_FOR) as [keyof ModelEntry, readonly string[]][]) {
      if (entry[key] !== undefined && !providers.includes(entry.provider)) {
        error(
          [...base, key],
          `\`${key}\` applies only to provider ${providers.map((p) => `\`${p}\``).join(' or ')}`,
        );
      }
    }
    if (entry.samples !== undefined && role !== 'judge') {
      error(
        [...base, 'samples'],
        '`samples` applies only to the judge',
        role === 'generator' ? 'generations per case are set by search.samples' : 'remove it',
      );
    }
  }
  return problems;
}

export interface ModelNeeds {
  hasRubric: boolean;
  hasExpectations: boolean;
  /** An agent experiment: its generator runs the agent cases (docs/design/agent-runs.md). */
  agent?: boolean;
}

export function resolveModels(
  models: ConfiguredModels & { generator: ModelEntry },
  needs: ModelNeeds,
): ResolvedModels {
  const { generator } = models;
  const resolved: ResolvedModels = { generator, mutator: models.mutator ?? generator };
  const judge: JudgeConfig = models.judge ?? { ...generator, temperature: 0 };
  if (needs.hasRubric) resolved.judge = judge;
  if (needs.hasExpectations) resolved.grader = models.grader ?? withoutSamples(judgeModel(models, generator));
  return resolved;
}

/** The judge's model entry; a panel's first model member. */
function judgeModel(models: ConfiguredModels, generator: ModelEntry): ModelEntry {
  const model = roleModels(models, ['judge'])[0];
  return model === undefined ? { ...generator, temperature: 0 } : model.entry;
}

function withoutSamples(entry: ModelEntry): ModelEntry {
  const { samples: _samples, ...rest } = entry;
  return rest;
}

/** Where each used role's entry came from, for the plan. */
export function describeModelOrigins(
  models: ConfiguredModels,
  needs: ModelNeeds,
): Partial<Record<Role, ModelOrigin>> {
  const origins: Partial<Record<Role, ModelOrigin>> = { generator: 'configured' };
  origins.mutator = models.mutator ? 'configured' : 'defaulted from generator';
  if (needs.hasRubric) origins.judge = models.judge ? 'configured' : 'defaulted from generator';
  if (needs.hasExpectations) {
    origins.grader = models.grader
      ? 'configured'
      : roleModels(models, ['judge']).length > 0
        ? 'defaulted from judge'
        : 'defaulted from generator';
  }
  return origins;
}

/** Roles configured but never called, and API keys missing from the environment. */
export function findModelWarnings(
  models: ConfiguredModels,
  resolved: ResolvedModels,
  needs: ModelNeeds,
  env: NodeJS.ProcessEnv,
  where: Where,
  /** `--provider`'s choice: keys are looked for as that provider's. */
  provider?: string,
): Problem[] {
  const problems: Problem[] = [];
  const warn = (path: KeyPath, message: string, hint?: string): void => {
    problems.push({
      severity: 'warning',
      location: { file: where.file, ...where.locate(path) },
      keyPath: formatKeyPath(path),
      message,
      ...(hint ? { hint } : {}),
    });
  };
  if (models.judge !== undefined && !needs.hasRubric) {
    warn(
      ['models', 'judge'],
      'the judge is configured but unused: the experiment has no rubric',
      'add `rubric:` to enable the judge',
    );
  }
  if (models.grader !== undefined && !needs.hasExpectations) {
    warn(['models', 'grader'], 'the grader is configured but unused: no case has expectations');
  }

  for (const { entry, path } of roleModels(models)) {
    // The user's CLI takes no sampling settings.
    if (providerRecord(entry.provider).agentCli !== true) continue;
    for (const key of ['temperature', 'max_tokens'] as const) {
      if (entry[key] === undefined) continue;
      warn(
        [...path, key],
        `\`${key}\` is ignored by provider \`${entry.provider}\`: the CLI has no such setting`,
        `remove it: only the API providers (${apiProviderList()}) take it`,
      );
    }
  }

  const keyed = provider === undefined ? resolved : swapProvider(resolved, provider as ProviderName);
  for (const [name, needers] of findMissingKeyModels(keyed, env, ROLES, needs.agent === true)) {
    const first = needers.find((m) => models[m.role] !== undefined)?.path ?? ['models', 'generator'];
    warn(
      first,
      describeMissingKey(name, [...new Set(needers.map((m) => m.role))]),
      missingKeyHint(name, agentNeeder(needers, needs.agent === true)),
    );
  }
  return problems;
}
