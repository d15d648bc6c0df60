/**
 * The implicit gate of structured output (docs/design/prompt-shapes.md): with `output.json_schema`,
 * every output must be JSON valid against that schema — an `is-json` gate named `output-schema`,
 * placed before the experiment's own global checks on every case. Outputs that call tools answer
 * with the calls instead, so the gate lets them pass. Weight 0: a provider that enforces the schema
 * would otherwise lift every candidate's checks signal alike; the gate alone is the rule.
 */
import type { CheckEntry } from '../experiment/schema.js';
import type { Experiment } from '../experiment/types.js';
import type { StructuredOutput } from '../providers/types.js';

export const OUTPUT_SCHEMA_GATE = 'output-schema';

// One entry per schema, so run-checks validates and names it once (it caches by entry).
const gates = new WeakMap<StructuredOutput, CheckEntry>();
const exemptWithToolCalls = new WeakSet<CheckEntry>();

function outputSchemaGate(output: StructuredOutput): CheckEntry {
  let gate = gates.get(output);
  if (gate === undefined) {
    gate = { type: 'is-json', value: output.schema, gate: true, weight: 0, name: OUTPUT_SCHEMA_GATE };
    gates.set(output, gate);
    exemptWithToolCalls.add(gate);
  }
  return gate;
}

/** The checks every case gets before its own: the implicit gate, then the experiment's global checks. */
export function globalChecks(experiment: Pick<Experiment, 'checks' | 'shape'>): CheckEntry[] {
  const output = experiment.shape.output;
  return output === undefined ? experiment.checks : [outputSchemaGate(output), ...experiment.checks];
}

/** Whether an output that called tools passes this check without being judged by it. */
export function isExemptWithToolCalls(entry: CheckEntry): boolean {
  return exemptWithToolCalls.has(entry);
}
