/**
 * Which optimisable part a failing check most likely comes from, for the mutator of a prompt
 * with several parts (docs/design/prompt-shapes.md) — said only when the texts make it plain: the
 * words the check looks for (its string values, a tool's name, "JSON" for the JSON checks and the
 * output-schema gate) appear in exactly one part. Otherwise, and for checks with no such words
 * (regex, counts, programs), the answer is `unknown`: a guess would steer the mutator to the wrong
 * part.
 */
import { OUTPUT_SCHEMA_GATE } from '../checks/output-schema-gate.js';
import { checkName } from '../checks/registry.js';
import type { CheckEntry } from '../experiment/schema.js';
import { optimisedNames, type PartTexts, splitPromptText } from '../experiment/part-texts.js';
import type { Experiment } from '../experiment/types.js';

export const UNKNOWN_PART = 'unknown';

export type Attribute = (check: { name: string; type: string }) => string;

export function checkAttributor(checks: readonly CheckEntry[], parts: PartTexts): Attribute {
  const words = new Map<string, string[]>();
  for (const entry of checks) {
    const name = checkName(entry);
    words.set(name, [...(words.get(name) ?? []), ...wordsOf(entry)]);
  }
  const lowered = Object.entries(parts).map(([name, text]) => [name, text.toLowerCase()] as const);
  return (check) => {
    const sought = check.name === OUTPUT_SCHEMA_GATE ? ['json'] : (words.get(check.name) ?? []);
    const found = lowered.filter(([, text]) => sought.some((word) => text.includes(word)));
    return found.length === 1 ? (found[0] as readonly [string, string])[0] : UNKNOWN_PART;
  };
}

/** The attributor for an experiment's checks (global and per case) over the parts of `prompt`. */
export function attributorFor(experiment: Experiment, prompt: string): Attribute {
  const checks = [...experiment.checks, ...experiment.cases.flatMap((c) => c.checks)];
  return checkAttributor(checks, splitPromptText(prompt, optimisedNames(experiment.shape)));
}

function wordsOf(entry: CheckEntry): string[] {
  const type = entry.type.replace(/^not-/, '');
  if (type === 'is-json' || type === 'contains-json') return ['json'];
  if (type === 'regex' || type === 'javascript' || type === 'command') return [];
  const values = Array.isArray(entry.value) ? entry.value : [entry.value];
  return values
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .map((v) => v.trim().toLowerCase());
}
