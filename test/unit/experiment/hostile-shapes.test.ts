/**
 * Hostile prompt-shape inputs (docs/experiment.md, "Limits"): each is an error at its file:line
 * and key path, where before it crashed the loader or was accepted and lost work later.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Problem, ValidationError } from '../../../src/errors.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('ar-hostile-shapes-');

const EXPERIMENT = `name: hostile
prompt:
  system: { file: system.md }
  messages:
    - { role: user, content: "{{question}}" }
  optimise: [system]
output: { json_schema: answer.schema.json }
tools: tools.json
cases: cases.yaml
models:
  generator: { provider: sim }
checks: [{ type: icontains, value: total }]
search: { acceptance: margin }
`;

const CASES = `- id: plain
  vars: { question: "Where is my invoice?" }
- id: with-tools
  vars: { question: "Total of INV-1?" }
  messages:
    - role: assistant
      content: ""
      tool_calls: [{ id: call_1, name: lookup, arguments: { name: ACME } }]
    - { role: tool, tool_call_id: call_1, content: '{"vendor": "ACME"}' }
`;

const TOOLS =
  '[{"name": "lookup", "parameters": {"type": "object", "properties": {"name": {"type": "string"}}}}]';

async function errorsOf(files: Record<string, string>): Promise<string[]> {
  const dir = join(tmp(), 'experiments', 'hostile');
  await mkdir(dir, { recursive: true });
  const all: Record<string, string> = {
    'experiment.yaml': EXPERIMENT,
    'system.md': 'You answer billing questions.\n',
    'answer.schema.json': '{"type": "object", "properties": {"total": {"type": "number"}}}',
    'tools.json': TOOLS,
    'cases.yaml': CASES,
    ...files,
  };
  for (const [name, text] of Object.entries(all)) await writeFile(join(dir, name), text);
  const error = await loadExperiment(dir, { cwd: tmp(), env: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ValidationError))
    throw new Error(`expected a ValidationError, got ${String(error)}`);
  expect(error.exitCode).toBe(2);
  return error.problems
    .filter((p: Problem) => p.severity === 'error')
    .map(
      (p) =>
        `${p.location.file.split('/').pop()}:${p.location.line}:${p.location.col} ${p.keyPath}: ${p.message}`,
    );
}

describe('hostile prompt shapes, each at its file:line', () => {
  it('an output schema nested 3,000 levels deep, at the first level past the limit', async () => {
    const deep = `${'{"type":"object","properties":{"a":'.repeat(3000)}{"type":"string"}${'}}'.repeat(3000)}`;
    const errors = await errorsOf({ 'answer.schema.json': deep });
    const opener = '{"type":"object","properties":{"a":'.length;
    expect(errors).toEqual([
      `answer.schema.json:1:${50 * opener + 1} ${Array(50).fill('properties.a').join('.')}: nested more than 100 levels deep`,
    ]);
  });

  it('a tools file whose parameters alias themselves', async () => {
    const tools = '- name: lookup\n  parameters: &p\n    type: object\n    properties:\n      x: *p\n';
    expect(await errorsOf({ 'tools.json': tools })).toEqual([
      'tools.json:5:10 [0].parameters.properties.x: alias *p points into the node it names (&p), so it never ends',
    ]);
  });

  it('two parts read from one file, one of them optimised, naming both key paths and the file', async () => {
    const shared = EXPERIMENT.replace('content: "{{question}}"', 'content: { file: system.md }');
    const both = shared.replace('optimise: [system]', "optimise: [system, 'messages[0]']");
    for (const experiment of [shared, both])
      expect(await errorsOf({ 'experiment.yaml': experiment })).toEqual([
        "experiment.yaml:5:32 prompt.messages[0].content.file: `prompt.messages[0].content.file` and `prompt.system.file` are both read from system.md, and `system` is optimised: an edit kept for one part would be overwritten by the other's text",
      ]);
  });

  it('two tool calls with one id in a case, at the second, naming the case and the id', async () => {
    const cases = CASES.replace(
      'tool_calls: [{ id: call_1, name: lookup, arguments: { name: ACME } }]',
      'tool_calls:\n        - { id: call_1, name: lookup, arguments: { name: ACME } }\n        - { id: call_1, name: lookup, arguments: { name: ACME Ltd } }',
    );
    expect(await errorsOf({ 'cases.yaml': cases })).toEqual([
      'cases.yaml:10:13 [1].messages[0].tool_calls[1].id: case `with-tools` calls `call_1` twice: a call id may appear once in a conversation',
    ]);
  });

  it('an output schema enum past the bound, at the file, before ajv compares its values pairwise', async () => {
    const values = JSON.stringify(Array.from({ length: 1001 }, (_, i) => `v${i}`));
    const schema = `{"type": "object", "properties": {"a": {"type": "string", "enum": ${values}}}}`;
    expect(await errorsOf({ 'answer.schema.json': schema })).toEqual([
      'answer.schema.json:1:1 : not a valid JSON Schema: `properties.a.enum` lists 1001 values, more than the 1000 allowed in one enum',
    ]);
  });
});
