/**
 * When experiment.yaml fails the schema, the parts that are fine are still checked, so one
 * `validate` reports every problem: each top-level field (and each model role and check) is
 * parsed on its own and used when it passes.
 */
import {
  CheckEntry,
  ExperimentFile,
  JudgeConfig,
  JudgeEntry,
  ModelEntry,
  Search,
  Weights,
} from './schema.js';
import type { ConfiguredModels } from './resolve-models.js';

type Shape = typeof ExperimentFile.shape;
export type PartialConfig = { [K in keyof Shape]?: ExperimentFile[K] };

export function readPartialConfig(data: Record<string, unknown>): PartialConfig {
  const partial: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(ExperimentFile.shape)) {
    const result = schema.safeParse(data[key]);
    if (result.success) partial[key] = result.data;
  }
  return partial as PartialConfig;
}

/** Each role on its own, so a bad judge does not hide a bad generator. */
export function readConfiguredModels(data: Record<string, unknown>): ConfiguredModels {
  const raw = data['models'];
  if (raw === null || typeof raw !== 'object') return {};
  const models = raw as Record<string, unknown>;
  const pick = <T>(
    schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
    v: unknown,
  ) => {
    if (v === undefined) return undefined;
    const result = schema.safeParse(v);
    return result.success ? result.data : undefined;
  };
  return {
    generator: pick(ModelEntry, models['generator']),
    mutator: pick(ModelEntry, models['mutator']),
    judge: pick(JudgeConfig, models['judge']),
    grader: pick(JudgeEntry, models['grader']),
  };
}

/** Global checks in file order; undefined where an entry fails the schema. */
export function readCheckEntries(data: Record<string, unknown>): (CheckEntry | undefined)[] {
  const raw = data['checks'];
  if (!Array.isArray(raw)) return [];
  return raw.map((value) => {
    const result = CheckEntry.safeParse(value);
    return result.success ? result.data : undefined;
  });
}

export function readSearch(partial: PartialConfig): Search {
  return partial.search ?? Search.parse({});
}

export function readWeights(partial: PartialConfig): Weights {
  return partial.scoring?.weights ?? Weights.parse({});
}
