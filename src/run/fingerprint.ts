/**
 * What a run's results depend on, reduced to digests plus enough detail to say exactly what
 * changed: the prompt, each case, the rubric, the global checks, the models and — for prompt
 * parts (docs/design/prompt-shapes.md) — every fixed part, the output schema and the tools, since
 * they change what is measured as much as the cases do. Stored in the manifest when a run starts
 * and recomputed by resume. A path prompt's fingerprint is the same as before prompt parts existed.
 */
import * as z from 'zod';
import type { Experiment, PromptShape } from '../experiment/types.js';
import { canonicalJson } from '../canonical-json.js';
import { sha256Hex, sha256Json } from '../sha256.js';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 hex digest');

export const Fingerprint = z.strictObject({
  hashes: z.strictObject({
    prompt: sha256,
    cases: sha256,
    rubric: sha256.nullable(),
    checks: sha256,
  }),
  /** Case id → sha256 of everything that defines the case (vars, checks, expectations, split). */
  caseHashes: z.record(z.string(), sha256),
  rubricCriteria: z.array(z.string()).nullable(),
  /** The global checks exactly as configured. */
  checks: z.array(z.record(z.string(), z.unknown())),
  /** The resolved model entries per role (no keys: those live only in the environment). */
  models: z.record(z.string(), z.unknown()),
  /**
   * Prompt parts only: sha256 of each fixed part (by name, with its role), of `output` (the
   * schema) and of `tools` (the definitions). The optimised part is `hashes.prompt`.
   */
  shape: z.record(z.string(), sha256).optional(),
});
export type Fingerprint = z.infer<typeof Fingerprint>;

export function fingerprintExperiment(experiment: Experiment): Fingerprint {
  const caseHashes = Object.fromEntries(
    experiment.cases.map((c) => [
      c.id,
      sha256Json({
        vars: c.vars,
        checks: c.checks,
        expectations: c.expectations,
        split: c.split,
        ...(c.messages ? { messages: c.messages } : {}),
      }),
    ]),
  );
  const shape = fingerprintShape(experiment.shape, experiment.config.judging?.inputs === true);
  const checks = plainJson(experiment.checks) as Record<string, unknown>[];
  return {
    hashes: {
      prompt: sha256Hex(experiment.prompt),
      cases: sha256Json(caseHashes),
      rubric: experiment.rubric ? sha256Hex(experiment.rubric.text) : null,
      checks: sha256Json(checks),
    },
    caseHashes,
    rubricCriteria: experiment.rubric ? experiment.rubric.criteria.map((c) => c.key) : null,
    checks,
    models: plainJson(experiment.models) as Record<string, unknown>,
    ...(shape ? { shape } : {}),
  };
}

/**
 * Undefined when nothing is fixed (a path prompt, say): such a fingerprint stays as it was.
 * `judging.inputs` is here too: a judge that reads the inputs measures something else.
 */
function fingerprintShape(shape: PromptShape, judgeInputs: boolean): Record<string, string> | undefined {
  const hashes: Record<string, string> = {};
  if (judgeInputs) hashes['judging.inputs'] = sha256Json(true);
  for (const part of shape.parts)
    if (!part.optimise) hashes[part.name] = sha256Json({ role: part.role, text: part.text });
  if (shape.output) hashes['output'] = sha256Json({ name: shape.output.name, schema: shape.output.schema });
  if (shape.tools) hashes['tools'] = sha256Json(shape.tools.definitions);
  return Object.keys(hashes).length === 0 ? undefined : hashes;
}

// Drops undefined keys and fixes key order, so the stored copy compares equal to a fresh one.
function plainJson(value: unknown): unknown {
  return JSON.parse(canonicalJson(value));
}
