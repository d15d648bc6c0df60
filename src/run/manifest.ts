/**
 * `manifest.json`: what a run was started with — kind, resolved config, digests of everything
 * the scores depend on, models, git, tool version. Written once at the start; resume compares
 * it with the files now on disk and refuses when they no longer match.
 */
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { AutoresearchError, isAutoresearchError } from '../errors.js';
import { canonicalJson } from '../canonical-json.js';
import { isErrno } from './errno.js';
import { RunKind } from './events.js';
import { RunFrom } from './run-from.js';
import { Fingerprint } from './fingerprint.js';
import { runPaths } from './paths.js';
import { RECORD_VERSION, refuseNewerRecord } from './record-version.js';
import { writeJsonAtomic } from './records.js';
import { isRecord } from '../is-record.js';
import { hasSeveralParts } from '../experiment/part-texts.js';
import type { Experiment } from '../experiment/types.js';
import { sha256Hex } from '../sha256.js';
import { missingManifestHint } from './missing-manifest.js';

export const Manifest = z.strictObject({
  /** The record version the run was started with; resume keeps writing under it. */
  version: z.number().int().min(1).max(RECORD_VERSION),
  kind: RunKind,
  runId: z.string().min(1),
  createdAt: z.iso.datetime({ offset: true }),
  toolVersion: z.string().min(1),
  /** Absolute path of the project root (the folder holding experiments/). */
  projectRoot: z.string().min(1),
  experiment: z.strictObject({
    name: z.string().min(1),
    /** experiment.yaml and the files it names, relative to the project root. */
    file: z.string().min(1),
    prompt: z.string().min(1),
    /**
     * Several optimised parts (docs/design/prompt-shapes.md) only: each part's file and the sha256
     * it started with, in request order; candidates' prompt.md and best.md hold their parts
     * document.
     */
    parts: z
      .record(z.string(), z.strictObject({ file: z.string().min(1), sha256: z.string().min(1) }))
      .optional(),
    cases: z.string().min(1),
    rubric: z.string().min(1).nullable(),
  }),
  /** The experiment config with defaults and overrides applied. */
  config: z.record(z.string(), z.unknown()),
  overrides: z.record(z.string(), z.unknown()),
  ...Fingerprint.shape,
  git: z.strictObject({ base: z.string().min(1), branch: z.string().min(1) }).nullable(),
  /** `run --from` (run-from.ts): the run and prompt this one started from; absent for every other run. */
  from: RunFrom.optional(),
});
export type Manifest = z.infer<typeof Manifest>;

/** `experiment.parts` of the manifest, to spread into it: nothing for a prompt of one part. */
/** The manifest's `experiment`: its files relative to the project root (`rel`), each optimised part with its digest. */
export function manifestExperiment(
  experiment: Experiment,
  rel: (file: string) => string,
): Manifest['experiment'] {
  return {
    name: experiment.name,
    file: rel(experiment.file),
    prompt: rel(experiment.promptPath),
    ...manifestParts(experiment, rel),
    cases: rel(experiment.casesPath),
    rubric: experiment.rubric ? rel(experiment.rubric.path) : null,
  };
}

function manifestParts(
  experiment: Experiment,
  rel: (file: string) => string,
): Pick<Manifest['experiment'], 'parts'> {
  if (!hasSeveralParts(experiment.shape)) return {};
  const parts = experiment.shape.parts.filter((p) => p.optimise);
  return {
    parts: Object.fromEntries(
      parts.map((p) => [p.name, { file: rel(p.path as string), sha256: sha256Hex(p.text) }]),
    ),
  };
}

export async function writeManifest(runDir: string, manifest: Manifest): Promise<void> {
  await writeJsonAtomic(runPaths(runDir).manifest, Manifest.parse(manifest));
}

export async function readManifest(runDir: string): Promise<Manifest> {
  const file = runPaths(runDir).manifest;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) {
      throw new AutoresearchError('E_NOT_FOUND', `${file} does not exist`, {
        hint: await missingManifestHint(runDir),
      });
    }
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AutoresearchError('E_RUN_RECORD', `${file} is not valid JSON`, {
      hint: 'manifest.json is written atomically, so it was edited by hand or damaged',
    });
  }
  // Before the schema: a newer manifest may hold fields this build does not know.
  if (isRecord(value) && typeof value['version'] === 'number') refuseNewerRecord(value['version'], file);
  const result = Manifest.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new AutoresearchError(
      'E_RUN_RECORD',
      `${file} is not a valid manifest (${where}${issue?.message})`,
      {
        hint: 'it may come from a different version of autoresearch',
      },
    );
  }
  return result.data;
}

/** The manifest, or null when it is missing or unreadable (for readers that only take hints from it). */
export async function readManifestOrNull(runDir: string): Promise<Manifest | null> {
  try {
    return await readManifest(runDir);
  } catch (error) {
    if (isAutoresearchError(error)) return null;
    throw error;
  }
}

export type ManifestField = 'prompt' | 'shape' | 'cases' | 'rubric' | 'checks' | 'models';

export interface ManifestDifference {
  what: ManifestField;
  /** False for the prompt file: the run continues from its own branch, the working tree only informs `apply`. */
  blocking: boolean;
  message: string;
}

/** Everything that changed between the manifest and the experiment as it is now, in a fixed order. */
export function compareManifest(manifest: Fingerprint, current: Fingerprint): ManifestDifference[] {
  const differences: ManifestDifference[] = [];
  if (manifest.hashes.prompt !== current.hashes.prompt) {
    differences.push({
      what: 'prompt',
      blocking: false,
      message: 'the prompt file changed in the working tree since the run started',
    });
  }
  const shape = describeShapeChanges(manifest.shape ?? {}, current.shape ?? {});
  if (shape) differences.push({ what: 'shape', blocking: true, message: shape });
  const cases = describeCaseChanges(manifest.caseHashes, current.caseHashes);
  if (cases) differences.push({ what: 'cases', blocking: true, message: cases });
  const rubric = describeRubricChange(manifest, current);
  if (rubric) differences.push({ what: 'rubric', blocking: true, message: rubric });
  const checks = describeCheckChanges(manifest.checks, current.checks);
  if (checks) differences.push({ what: 'checks', blocking: true, message: checks });
  const models = describeValueChanges('models', manifest.models, current.models);
  if (models.length > 0) {
    differences.push({ what: 'models', blocking: true, message: `models changed: ${listSome(models, 4)}` });
  }
  return differences;
}

function describeCaseChanges(before: Record<string, string>, after: Record<string, string>): string | null {
  const added = Object.keys(after).filter((id) => !(id in before));
  const removed = Object.keys(before).filter((id) => !(id in after));
  const changed = Object.keys(after).filter((id) => id in before && before[id] !== after[id]);
  const parts = [
    added.length > 0 ? `added ${listSome(added)}` : '',
    removed.length > 0 ? `removed ${listSome(removed)}` : '',
    changed.length > 0 ? `changed ${listSome(changed)}` : '',
  ].filter((part) => part !== '');
  return parts.length === 0 ? null : `cases changed: ${parts.join('; ')}`;
}

/** Fixed prompt parts, the output schema and the tools (docs/design/prompt-shapes.md), by name. */
function describeShapeChanges(before: Record<string, string>, after: Record<string, string>): string | null {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = names.filter((name) => before[name] !== after[name]);
  if (changed.length === 0) return null;
  return `the prompt's fixed parts, output schema, tools or judge inputs changed: ${listSome(changed)}`;
}

function describeRubricChange(before: Fingerprint, after: Fingerprint): string | null {
  if (before.hashes.rubric === after.hashes.rubric) return null;
  if (before.hashes.rubric === null) return 'a rubric was added (the run had no judge)';
  if (after.hashes.rubric === null) return 'the rubric was removed (the run was judged with one)';
  const was = before.rubricCriteria ?? [];
  const now = after.rubricCriteria ?? [];
  const added = now.filter((key) => !was.includes(key));
  const removed = was.filter((key) => !now.includes(key));
  const parts = [
    added.length > 0 ? `criteria added: ${listSome(added)}` : '',
    removed.length > 0 ? `criteria removed: ${listSome(removed)}` : '',
  ].filter((part) => part !== '');
  return parts.length === 0 ? 'the rubric text changed' : `the rubric changed (${parts.join('; ')})`;
}

function describeCheckChanges(before: readonly unknown[], after: readonly unknown[]): string | null {
  const changed: string[] = [];
  for (let index = 0; index < Math.max(before.length, after.length); index++) {
    const was = before[index];
    const now = after[index];
    if (canonicalJson(was) === canonicalJson(now)) continue;
    const label = `#${index + 1}`;
    if (was === undefined) changed.push(`${label} added (${checkName(now)})`);
    else if (now === undefined) changed.push(`${label} removed (${checkName(was)})`);
    else changed.push(`${label} ${checkName(was)} changed`);
  }
  return changed.length === 0 ? null : `global checks changed: ${listSome(changed)}`;
}

function checkName(check: unknown): string {
  if (check === null || typeof check !== 'object') return 'check';
  const { name, type } = check as { name?: unknown; type?: unknown };
  return typeof name === 'string' ? name : typeof type === 'string' ? type : 'check';
}

/** Leaf-by-leaf differences, as `path: old -> new`. */
function describeValueChanges(path: string, before: unknown, after: unknown): string[] {
  if (canonicalJson(before) === canonicalJson(after)) return [];
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => describeValueChanges(`${path}.${key}`, before[key], after[key]));
  }
  return [`${path}: ${show(before)} -> ${show(after)}`];
}

function show(value: unknown): string {
  return value === undefined ? '(unset)' : JSON.stringify(value);
}

function listSome(items: readonly string[], limit = 5): string {
  if (items.length <= limit) return items.join(', ');
  return `${items.slice(0, limit).join(', ')} and ${items.length - limit} more`;
}
