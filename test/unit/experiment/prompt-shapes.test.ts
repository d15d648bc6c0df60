/**
 * Prompt shapes in the experiment format (docs/design/prompt-shapes.md): prompt parts, case
 * conversations with tool turns, the output schema and tools files — loaded into
 * `experiment.shape`, and every rule refused at its file:line and key path.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError, type Problem } from '../../../src/errors.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import { applyOverrides } from '../../../src/experiment/overrides.js';
import { buildPlan } from '../../../src/experiment/plan.js';
import { formatPlan } from '../../../src/ui/format-plan.js';
import pc from 'picocolors';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('ar-shapes-');

const SCHEMA = JSON.stringify({ type: 'object', properties: { total: { type: 'number' } } });
const TOOLS = JSON.stringify([
  {
    name: 'lookup_vendor',
    description: 'Find a vendor by name',
    parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
]);

const EXPERIMENT = `name: shapes
prompt:
  system: { file: system.md }
  messages:
    - { role: user, content: "Customer tier: {{tier}}" }
    - { role: assistant, content: "Noted." }
    - { role: user, content: { file: user.md } }
  optimise: [system]
output: { json_schema: invoice.schema.json }
tools: tools.json
cases: cases.yaml
models:
  generator: { provider: sim }
checks: [{ type: icontains, value: total }]
# Two cases: paired acceptance needs two train cases, which is not what these tests are about.
search: { acceptance: margin }
`;

const CASES = `- id: plain
  vars: { tier: gold, question: "Where is my invoice?" }
- id: with-tools
  vars: { tier: silver, question: "Total of INV-1?" }
  messages:
    - { role: user, content: "Also for {{tier}} customers" }
    - role: assistant
      content: ""
      tool_calls: [{ id: call_1, name: lookup_vendor, arguments: { name: ACME } }]
    - { role: tool, tool_call_id: call_1, content: '{"vendor": "ACME"}' }
`;

/** Writes an experiment folder: the defaults above with `files` replacing or adding files. */
async function write(files: Record<string, string> = {}): Promise<string> {
  const dir = join(tmp(), 'experiments', 'shapes');
  await mkdir(dir, { recursive: true });
  const all: Record<string, string> = {
    'experiment.yaml': EXPERIMENT,
    'system.md': 'You answer billing questions.\n',
    'user.md': 'Question: {{question}}\n',
    'invoice.schema.json': SCHEMA,
    'tools.json': TOOLS,
    'cases.yaml': CASES,
    ...files,
  };
  for (const [name, text] of Object.entries(all)) await writeFile(join(dir, name), text);
  return dir;
}

async function load(dir: string) {
  return loadExperiment(dir, { cwd: tmp(), env: {} });
}

async function errorsOf(dir: string): Promise<Problem[]> {
  const error = await load(dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ValidationError))
    throw new Error(`expected a ValidationError, got ${String(error)}`);
  return error.problems.filter((p) => p.severity === 'error');
}

/** `file:line key: message` for each error, the file by its base name. */
function brief(problems: readonly Problem[]): string[] {
  return problems.map(
    (p) => `${p.location.file.split('/').pop()}:${p.location.line} ${p.keyPath}: ${p.message}`,
  );
}

describe('loading prompt parts', () => {
  it('builds the shape in request order, with the optimised part as the loop prompt', async () => {
    const dir = await write();
    const { experiment } = await load(dir);
    expect(experiment.shape.parts).toEqual([
      {
        name: 'system',
        role: 'system',
        text: 'You answer billing questions.\n',
        path: join(dir, 'system.md'),
        optimise: true,
      },
      { name: 'messages[0]', role: 'user', text: 'Customer tier: {{tier}}', optimise: false },
      { name: 'messages[1]', role: 'assistant', text: 'Noted.', optimise: false },
      {
        name: 'messages[2]',
        role: 'user',
        text: 'Question: {{question}}\n',
        path: join(dir, 'user.md'),
        optimise: false,
      },
    ]);
    expect(experiment.promptPath).toBe(join(dir, 'system.md'));
    expect(experiment.prompt).toBe('You answer billing questions.\n');
    expect(experiment.shape.output).toEqual({
      name: 'invoice_schema',
      schema: JSON.parse(SCHEMA),
      path: join(dir, 'invoice.schema.json'),
    });
    expect(experiment.shape.tools).toEqual({ path: join(dir, 'tools.json'), definitions: JSON.parse(TOOLS) });
  });

  it("reads a case's conversation in the request's own shape, its placeholders filled", async () => {
    const { experiment } = await load(await write());
    const [plain, withTools] = experiment.cases;
    expect(plain?.messages).toBeUndefined();
    expect(withTools?.messages).toEqual([
      { role: 'user', content: 'Also for silver customers' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'lookup_vendor', arguments: { name: 'ACME' } }],
      },
      { role: 'tool', toolCallId: 'call_1', content: '{"vendor": "ACME"}' },
    ]);
  });

  it('optimises the only file-backed part when `optimise` is absent', async () => {
    const dir = await write({
      'experiment.yaml': EXPERIMENT.replace('  optimise: [system]\n', '').replace(
        '{ file: user.md }',
        '"Question: {{question}}"',
      ),
    });
    const { experiment } = await load(dir);
    expect(experiment.shape.parts.filter((p) => p.optimise).map((p) => p.name)).toEqual(['system']);
  });

  it('reads cases with messages from JSONL too', async () => {
    const jsonl = `${JSON.stringify({ id: 'a', vars: { tier: 'x', question: 'q' }, messages: [{ role: 'user', content: 'hi' }] })}\n`;
    const dir = await write({
      'cases.jsonl': jsonl,
      'experiment.yaml': EXPERIMENT.replace('cases: cases.yaml', 'cases: cases.jsonl'),
    });
    const { experiment } = await load(dir);
    expect(experiment.cases[0]?.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

describe('the plan of an experiment with prompt parts', () => {
  it('names the optimised part, the fixed ones, the schema and the tools', async () => {
    const dir = await write();
    const { experiment } = await load(dir);
    const plan = buildPlan(experiment);
    expect(plan.prompt.shape).toEqual({
      part: 'system',
      fixed: ['messages[0]', 'messages[1]', 'messages[2]'],
      output: join(dir, 'invoice.schema.json'),
      tools: ['lookup_vendor'],
    });
    const text = formatPlan(plan, pc.createColors(false), dir);
    expect(text).toContain('optimised part: system; fixed: messages[0], messages[1], messages[2]');
    expect(text).toContain('output schema: invoice.schema.json');
    expect(text).toContain('tools: lookup_vendor');
  });
});

describe('prompt-part rules, each at its file:line', () => {
  it('an unknown part name in optimise, with the nearest name', async () => {
    const dir = await write({
      'experiment.yaml': EXPERIMENT.replace('optimise: [system]', 'optimise: [sytem]'),
    });
    const errors = await errorsOf(dir);
    expect(brief(errors)).toContain(
      'experiment.yaml:8 prompt.optimise[0]: `sytem` is not a part of this prompt',
    );
    expect(errors[0]?.hint).toBe('did you mean `system`?');
  });

  it('optimising an inline part', async () => {
    const dir = await write({
      'experiment.yaml': EXPERIMENT.replace('optimise: [system]', 'optimise: ["messages[0]"]'),
    });
    expect(brief(await errorsOf(dir))).toEqual([
      'experiment.yaml:8 prompt.optimise[0]: `messages[0]` is inline text, so it is fixed and cannot be optimised',
    ]);
  });

  it('several optimisable parts, named or by default: the loop prompt is their parts document', async () => {
    const named = await write({
      'experiment.yaml': EXPERIMENT.replace('optimise: [system]', 'optimise: [system, "messages[2]"]'),
    });
    const byDefault = await write({ 'experiment.yaml': EXPERIMENT.replace('  optimise: [system]\n', '') });
    for (const dir of [named, byDefault]) {
      const { experiment } = await load(dir);
      expect(experiment.shape.parts.filter((p) => p.optimise).map((p) => p.name)).toEqual([
        'system',
        'messages[2]',
      ]);
      expect(experiment.promptPath).toBe(join(dir, 'system.md'));
      expect(experiment.prompt).toBe(
        '<!-- part: system -->\nYou answer billing questions.\n\n<!-- part: messages[2] -->\nQuestion: {{question}}\n',
      );
    }
  });

  it('a part marker line inside one of several optimised parts', async () => {
    const dir = await write({
      'experiment.yaml': EXPERIMENT.replace('optimise: [system]', 'optimise: [system, "messages[2]"]'),
      'user.md': 'Question: {{question}}\n<!-- part: system -->\n',
    });
    expect(brief(await errorsOf(dir))).toEqual([
      'user.md:2 prompt.messages[2].content.file: `messages[2]` holds the line "<!-- part: system -->", which marks where a part begins when several parts are optimised',
    ]);
  });

  it('a prompt with only inline parts has nothing to optimise', async () => {
    const dir = await write({
      'experiment.yaml':
        'name: shapes\nprompt:\n  system: "Be brief."\n  messages: [{ role: user, content: "{{question}} {{tier}}" }]\ncases: cases.yaml\nmodels:\n  generator: { provider: sim }\nchecks: [{ type: icontains, value: a }]\nsearch: { acceptance: margin }\n',
    });
    expect(brief(await errorsOf(dir))).toEqual([
      'experiment.yaml:2 prompt: every part of the prompt is inline text, so the loop has nothing to optimise',
    ]);
  });

  it('a conversation ending with an assistant turn, in the template or in a case', async () => {
    const template = await write({
      'experiment.yaml': EXPERIMENT.replace('    - { role: user, content: { file: user.md } }\n', '').replace(
        'optimise: [system]',
        'optimise: [system]',
      ),
      'cases.yaml': '- id: plain\n  vars: { tier: gold }\n',
    });
    expect(brief(await errorsOf(template))).toEqual([
      "experiment.yaml:6 prompt.messages[1].role: for the cases the conversation ends with the template's assistant message: the request must end with a user (or tool) turn",
    ]);
    const inCase = await write({
      'cases.yaml': `${CASES}- id: ends-wrong\n  vars: { tier: a, question: b }\n  messages:\n    - { role: user, content: hi }\n    - { role: assistant, content: hello }\n`,
    });
    expect(brief(await errorsOf(inCase))).toEqual([
      'cases.yaml:15 [2].messages[1]: case `ends-wrong` ends with an assistant turn: the request must end with a user (or tool) turn',
    ]);
  });

  it('a tool turn answering no earlier call', async () => {
    const dir = await write({ 'cases.yaml': CASES.replace('tool_call_id: call_1', 'tool_call_id: call_9') });
    expect(brief(await errorsOf(dir))).toEqual([
      'cases.yaml:10 [1].messages[2]: case `with-tools`: call `call_1` of message 1 has no tool turn answering it',
      'cases.yaml:10 [1].messages[2].tool_call_id: tool turn answers `call_9`, which no earlier assistant turn of case `with-tools` called',
    ]);
  });

  it('a call left unanswered before the next turn', async () => {
    const dir = await write({
      'cases.yaml': `${CASES}    - { role: user, content: thanks }\n`.replace(
        'tool_calls: [{ id: call_1, name: lookup_vendor, arguments: { name: ACME } }]',
        'tool_calls: [{ id: call_1, name: lookup_vendor, arguments: {} }, { id: call_2, name: lookup_vendor, arguments: {} }]',
      ),
    });
    expect(brief(await errorsOf(dir))).toEqual([
      'cases.yaml:11 [1].messages[3]: case `with-tools`: call `call_2` of message 1 has no tool turn answering it before this turn',
    ]);
  });

  it('a placeholder with no value in some case, in any part and in a case message', async () => {
    const dir = await write({
      'cases.yaml': CASES.replace(
        'vars: { tier: gold, question: "Where is my invoice?" }',
        'vars: { question: q }',
      )
        .replace('vars: { tier: silver, question: "Total of INV-1?" }', 'vars: { question: q }')
        .replace('Also for {{tier}} customers', 'Also for {{segment}} customers'),
    });
    expect(brief(await errorsOf(dir))).toEqual([
      'experiment.yaml:5 prompt.messages[0].content: {{tier}} (in `messages[0]`) has no value in any of the 2 cases',
      'cases.yaml:6 [1].messages[0].content: case `with-tools` has no value for {{segment}} in its message 0',
    ]);
  });

  it('models.generator.system together with prompt.system', async () => {
    const dir = await write({
      'experiment.yaml': EXPERIMENT.replace(
        'generator: { provider: sim }',
        'generator: { provider: sim, system: "Be kind." }',
      ),
    });
    expect(brief(await errorsOf(dir))).toEqual([
      'experiment.yaml:13 models.generator.system: `models.generator.system` and `prompt.system` both set the system prompt',
    ]);
  });

  it('tools with a claude-cli or codex-cli generator', async () => {
    for (const provider of ['claude-cli', 'codex-cli']) {
      const dir = await write({
        'experiment.yaml': EXPERIMENT.replace(
          'generator: { provider: sim }',
          `generator: { provider: ${provider} }`,
        ),
      });
      expect(brief(await errorsOf(dir))).toEqual([
        `experiment.yaml:10 tools: \`tools:\` cannot be offered through the ${provider} generator: it runs with its own tools off`,
      ]);
    }
  });

  it('--provider claude-cli or codex-cli on an experiment with tools is a usage error (exit 2)', async () => {
    const { experiment } = await load(await write());
    for (const provider of ['claude-cli', 'codex-cli'])
      expect(() => applyOverrides(experiment, { provider })).toThrow(
        expect.objectContaining({ code: 'E_USAGE', exitCode: 2 }),
      );
    expect(applyOverrides(experiment, { provider: 'sim' }).experiment.models.generator.provider).toBe('sim');
  });

  it('an invalid JSON schema file', async () => {
    const broken = await write({ 'invoice.schema.json': '{\n  "type": "object",\n  "properties": {\n}}}' });
    expect(brief(await errorsOf(broken))[0]).toMatch(/^invoice\.schema\.json:4 : not valid JSON/);
    const wrong = await write({ 'invoice.schema.json': '{"type": "objekt"}' });
    expect(brief(await errorsOf(wrong))[0]).toMatch(/^invoice\.schema\.json:1 : not a valid JSON Schema: /);
    const missing = await write({
      'experiment.yaml': EXPERIMENT.replace('invoice.schema.json', 'nope.json'),
    });
    expect(brief(await errorsOf(missing))).toEqual([
      'experiment.yaml:9 output.json_schema: output.json_schema file "nope.json" does not exist',
    ]);
  });

  it('an invalid tools file: each entry at its line', async () => {
    const tools = `- name: lookup vendor
  parameters: { type: object }
- name: ok
  parameters: { type: object }
- name: ok
  parameters: { type: objekt }
- name: nothing
  description: 3
`;
    const dir = await write({ 'tools.json': tools });
    expect(brief(await errorsOf(dir))).toEqual([
      'tools.json:1 [0].name: "lookup vendor": use 1 to 64 letters, digits, "_" and "-" (the APIs allow no more)',
      'tools.json:5 [2].name: duplicate tool name `ok` (first in entry 1)',
      expect.stringMatching(
        /^tools\.json:6 \[2\]\.parameters: parameters of `ok` is not a valid JSON Schema: /,
      ),
      'tools.json:7 [3].parameters: missing required key `parameters`',
      'tools.json:8 [3].description: expected a string, got 3',
    ]);
  });

  it('a CSV cases file cannot carry messages', async () => {
    const dir = await write({
      'cases.csv': 'id,tier,question,messages\na,gold,q,hi\n',
      'experiment.yaml': EXPERIMENT.replace('cases: cases.yaml', 'cases: cases.csv'),
    });
    const errors = await errorsOf(dir);
    expect(brief(errors)).toEqual(['cases.csv:1 : a CSV cases file cannot hold `messages`']);
    expect(errors[0]?.hint).toBe(
      'per-case checks, expectations and messages need a .yaml or .jsonl cases file',
    );
  });
});
