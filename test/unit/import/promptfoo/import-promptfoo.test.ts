/**
 * Whole imports of realistic promptfoo configs (test/fixtures/promptfoo/*): each is copied
 * into a fresh project, planned, written, and loaded with the real experiment loader, which
 * must find no errors.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AutoresearchError, ValidationError } from '../../../../src/errors.js';
import { loadExperiment } from '../../../../src/experiment/load-experiment.js';
import { type ImportPlan, importPromptfoo } from '../../../../src/import/promptfoo/import-promptfoo.js';
import { writeImportedFiles } from '../../../../src/import/promptfoo/write-import.js';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/promptfoo');
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A project with experiments/ and the fixture copied under evals/<fixture>/. */
function project(fixture: string): string {
  const root = mkdtempSync(join(tmpdir(), 'ar-pf-import-'));
  roots.push(root);
  mkdirSync(join(root, 'experiments'));
  cpSync(join(FIXTURES, fixture), join(root, 'evals', fixture), { recursive: true });
  return root;
}

async function importFixture(fixture: string, configFile: string, promptIndex?: number) {
  const root = project(fixture);
  const plan = await importPromptfoo({
    configPath: join(root, 'evals', fixture, configFile),
    name: fixture,
    projectRoot: root,
    ...(promptIndex === undefined ? {} : { promptIndex }),
  });
  await writeImportedFiles(root, fixture, plan.files, root);
  let loaded: Awaited<ReturnType<typeof loadExperiment>>;
  try {
    loaded = await loadExperiment(fixture, { cwd: root, env: {} });
  } catch (error) {
    if (error instanceof ValidationError)
      throw new Error(error.problems.map((p) => `${p.keyPath} ${p.message}`).join('\n'));
    throw error;
  }
  const file = (name: string) =>
    plan.files.find((f) => f.path === `experiments/${fixture}/${name}`)?.text ?? '';
  return { root, plan, ...loaded, file, yaml: parse(file('experiment.yaml')) as Record<string, unknown> };
}

function whats(plan: ImportPlan): string {
  return plan.unmapped.map((u) => `${u.what}: ${u.why}`).join('\n');
}

describe('inline tests, two prompts, defaultTest (support-inline)', async () => {
  const { plan, experiment, problems, file } = await importFixture(
    'support-inline',
    'promptfooconfig.yaml',
    1,
  );

  it('imports the chosen prompt with its {{var}} placeholders', () => {
    expect(experiment.prompt).toBe(
      'You are a friendly support agent for Pageturner Books.\nCustomer name: {{name}}\nCustomer message: {{message}}\nWrite a short, polite reply that solves the problem.\n',
    );
    expect(plan.notes.join('\n')).toContain('the config has 2 prompts and this is prompt 1');
  });

  it('maps the first provider to the generator and lists the second as an alternative', () => {
    expect(experiment.models.generator).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
    expect(file('experiment.yaml')).toContain(
      '#   generator: { provider: anthropic, model: claude-3-5-haiku-20241022, temperature: 0.3, max_tokens: 500 }   # anthropic:messages:claude-3-5-haiku-20241022 (haiku)',
    );
  });

  it('turns defaultTest asserts into global checks and its vars into defaults under each test', () => {
    expect(experiment.checks).toEqual([
      { type: 'not-icontains-any', value: ['as an ai', 'language model'] },
      { type: 'javascript', value: 'output.length < 1200', weight: 2 },
    ]);
    const byId = Object.fromEntries(experiment.cases.map((c) => [c.id, c]));
    expect(byId['late-order']?.vars['name']).toBe('Priya');
    expect(byId['refund-policy-question']?.vars['name']).toBe('there');
  });

  it('turns test asserts into case checks (weights, metrics, negations) and llm-rubric into expectations', () => {
    const [late, refund, canada] = experiment.cases.sort(
      (a, b) => (a.source.line ?? 0) - (b.source.line ?? 0),
    );
    expect(late?.id).toBe('late-order');
    expect(late?.checks).toEqual([
      { type: 'icontains', value: '5521' },
      { type: 'contains-any', value: ['sorry', 'apologi'], name: 'empathy' },
    ]);
    expect(late?.expectations).toEqual([
      'Offers to check the tracking or send a replacement',
      'The reply is polite and does not blame the customer',
    ]);
    expect(refund?.checks).toEqual([
      { type: 'not-contains', value: 'definitely' },
      { type: 'regex', value: '\\b(30|thirty)[- ]day', weight: 0.5 },
    ]);
    expect(canada?.id).toBe('test-3');
    expect(canada?.checks.map((c) => c.type)).toEqual(['starts-with', 'icontains-all']);
  });

  it('has nothing left over, and validates with only the missing-key warning', () => {
    expect(plan.unmapped).toEqual([]);
    expect(file('experiment.yaml')).toContain('# Everything in the promptfoo config was imported.');
    expect(problems.map((p) => p.message)).toEqual([
      'OPENAI_API_KEY is not set (needed by generator, mutator, grader)',
    ]);
  });
});

describe('file:// prompts, a chat-format JSON prompt and CSV tests (summaries-files)', async () => {
  const { plan, experiment, file } = await importFixture('summaries-files', 'promptfooconfig.yaml', 2);

  it("makes the chat prompt's system message the optimised part and its user message a fixed one", () => {
    expect(experiment.shape.parts.map((p) => [p.name, p.role, p.text, p.optimise])).toEqual([
      ['system', 'system', 'You are a careful news editor. Never invent facts.\n', true],
      [
        'messages[0]',
        'user',
        'Summarize this article for {{audience}} in under 80 words:\n\n{{article}}',
        false,
      ],
    ]);
    expect(experiment.prompt).toBe('You are a careful news editor. Never invent facts.\n');
    expect(experiment.models.generator.system).toBeUndefined();
    expect(file('system.md')).toBe('You are a careful news editor. Never invent facts.\n');
    expect(plan.files.map((f) => f.path)).not.toContain('experiments/summaries-files/prompt.md');
  });

  it('counts the two prompts of the --- separated .txt file separately', () => {
    expect(plan.notes.join('\n')).toContain('0 "prompts/summarize.txt #1", 1 "prompts/summarize.txt #2"');
  });

  it('reads CSV columns as vars and __expected cells as checks and expectations', () => {
    const bike = experiment.cases.find((c) => c.id === 'bike-lane-vote');
    expect(bike?.vars).toEqual({
      article: 'The city council approved a new bike lane on Main Street, with construction starting in May.',
      audience: 'commuters',
    });
    expect(bike?.checks).toEqual([
      { type: 'icontains', value: 'bike lane', name: 'accuracy' },
      { type: 'not-icontains', value: 'allegedly', name: 'accuracy' },
    ]);
    expect(bike?.expectations).toEqual(['mentions when construction starts']);
    expect(experiment.cases.find((c) => c.id === 'bee-study')?.checks).toEqual([
      { type: 'icontains-any', value: ['bee', 'bees'] },
      { type: 'javascript', value: "output.split(' ').length < 90" },
    ]);
    expect(experiment.cases.find((c) => c.id === 'harbour-storm')?.checks.map((c) => c.type)).toEqual([
      'contains',
      'is-json',
    ]);
  });

  it('maps provider config and evaluateOptions, and never writes the API key', () => {
    expect(experiment.models.generator).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      temperature: 0.2,
      params: { top_p: 0.9, seed: 7 },
    });
    expect(experiment.config.search.samples).toBe(2);
    expect(experiment.config.concurrency).toBe(3);
    for (const f of plan.files) expect(f.text).not.toContain('sk-live');
    expect(JSON.stringify(plan)).not.toContain('sk-live');
  });

  it('lists what it could not import, in the plan and at the top of experiment.yaml', () => {
    const text = whats(plan);
    expect(text).toContain('`similar` assertion (tests/articles.csv:4 assert[2])');
    expect(text).toContain('an API key written in the config (providers[0].config.apiKey)');
    expect(text).toContain('`outputPath`');
    expect(text).toContain('`evaluateOptions.showProgressBar`');
    const header = file('experiment.yaml').split('\nname:')[0] ?? '';
    expect(header).toContain(`# NOT IMPORTED (${plan.unmapped.length})`);
    for (const item of plan.unmapped) expect(header).toContain(item.what);
  });
});

describe('tests from YAML files, defaultTest from a file, exec: provider (extraction-exec)', async () => {
  const { root, plan, experiment, file } = await importFixture('extraction-exec', 'promptfooconfig.yaml');

  it('maps exec: to a command provider whose script path works from the project root, with a mutator of its own', () => {
    expect(experiment.models.generator).toEqual({
      provider: 'command',
      command: ['node', './evals/extraction-exec/scripts/model.mjs', '--mode', 'strict json'],
    });
    expect(experiment.models.mutator).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(plan.notes.join('\n')).toContain('stdin');
    expect(resolve(root, './evals/extraction-exec/scripts/model.mjs')).toBe(
      join(root, 'evals/extraction-exec/scripts/model.mjs'),
    );
  });

  it('keeps the Nunjucks filter in the prompt as written and reports it', () => {
    expect(experiment.prompt).toContain('{{ currency | upper }}');
    expect(whats(plan)).toContain('`{{ currency | upper }}` in the prompt');
  });

  it('reads tests from cases.yaml and inline, vars from files, and renders defaultTest templates per case', () => {
    expect(experiment.cases.map((c) => c.id)).toEqual([
      'simple-invoice',
      'invoice-in-yen',
      'invoice-with-a-discount',
    ]);
    const discount = experiment.cases.find((c) => c.id === 'invoice-with-a-discount');
    expect(discount?.vars['invoice']).toBe(
      'Invoice INV-2044\nSubtotal: 100.00 EUR\nDiscount: -10.00 EUR\nTotal: 90.00 EUR',
    );
    expect(experiment.checks).toEqual([{ type: 'is-json' }]);
    expect(experiment.cases.map((c) => c.checks.at(-1))).toEqual([
      { type: 'icontains', value: 'usd' },
      { type: 'icontains', value: 'jpy' },
      { type: 'icontains', value: 'EUR' },
    ]);
  });

  it('flattens assert-set, reads the schema file and re-points the javascript file with its threshold', () => {
    expect(experiment.cases[0]?.checks.slice(0, 3)).toEqual([
      { type: 'contains', value: 'INV-1001' },
      { type: 'contains', value: '120' },
      { type: 'not-contains', value: '120.0000' },
    ]);
    const discount = experiment.cases.find((c) => c.id === 'invoice-with-a-discount');
    expect(discount?.checks[0]).toMatchObject({
      type: 'is-json',
      value: { required: ['invoice_number', 'total', 'currency'] },
    });
    expect(discount?.checks[2]).toEqual({
      type: 'javascript',
      value: 'file://../../evals/extraction-exec/scripts/total-check.js:checkTotal',
      threshold: 0.5,
    });
    expect(resolve(experiment.dir, '../../evals/extraction-exec/scripts/total-check.js')).toBe(
      join(root, 'evals/extraction-exec/scripts/total-check.js'),
    );
  });

  it('lists unmappable providers and assertion types, thresholds, metadata and transforms', () => {
    const text = whats(plan);
    for (const expected of [
      'provider `vertex:gemini-1.5-pro` (providers[1])',
      'provider `https://api.example.com/v1/generate` (providers[2])',
      '`similar` assertion (tests[1].assert[3])',
      '`not-llm-rubric` assertion (tests[1].assert[4])',
      '`equals` assertion with `transform` (tests[1].assert[5])',
      '`cost` assertion (cases.yaml[1].assert[1])',
      '`threshold` on a test (tests[1])',
      '`metadata` on a test (tests[1])',
      '`defaultTest.options` (provider)',
    ]) {
      expect(text).toContain(expected);
    }
    expect(file('experiment.yaml')).toContain('NOT IMPORTED (10)');
  });
});

describe('a YAML chat prompt with few-shot turns, list vars and an Ollama provider (chat-tutor)', async () => {
  const { plan, experiment, yaml } = await importFixture('chat-tutor', 'promptfooconfig.yaml');

  it('keeps the few-shot turns as fixed messages and optimises the system message, {{vars}} and all', () => {
    expect(yaml['prompt']).toEqual({
      system: { file: 'system.md' },
      messages: [
        { role: 'user', content: 'What is 2 + 2?' },
        { role: 'assistant', content: '2 + 2 = 4, because counting two more from two gives four.' },
        { role: 'user', content: 'Explain this problem: {{problem}}' },
      ],
      optimise: ['system'],
    });
    expect(experiment.prompt).toBe('You tutor {{level}} students in maths. Explain step by step.\n');
    expect(experiment.models.generator.system).toBeUndefined();
  });

  it('reports the image part', () => {
    const text = whats(plan);
    expect(text).not.toContain('an earlier turn');
    expect(text).toContain('a `image_url` part of a user message');
    expect(text).toContain('`python` assertion (tests[1].assert[1])');
    expect(text).toContain('`scenarios`');
  });

  it('expands list-valued vars into one case per value, as promptfoo does', () => {
    expect(experiment.cases.map((c) => [c.id, c.vars['level']])).toEqual([
      ['test-1', 'primary'],
      ['test-2', 'secondary'],
      ['test-3', 'university'],
    ]);
    expect(experiment.cases[0]?.expectations).toEqual([
      'Explains the relationship between distance, speed and time',
      'Gives the arrival time',
    ]);
    expect(experiment.cases[2]?.expectations).toEqual([
      'Agrees with this reference answer: The integral equals 9',
    ]);
  });

  it('maps Ollama to its OpenAI-compatible endpoint', () => {
    expect(experiment.models.generator).toEqual({
      provider: 'openai',
      model: 'llama3.1:8b',
      base_url: 'http://localhost:11434/v1',
    });
  });
});

describe('JSON config, gateway providers, unsupported prompts (gateway-mixed)', async () => {
  const { plan, experiment, yaml } = await importFixture('gateway-mixed', 'promptfooconfig.json');

  it('maps apiBaseUrl and apiKeyEnvar to an OpenAI-compatible entry, reporting what the schema refuses', () => {
    expect(experiment.models.generator).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
      base_url: 'https://gateway.internal.example.com/v1',
      api_key_env: 'GATEWAY_KEY',
    });
    const text = whats(plan);
    expect(text).toContain('provider setting `temperature`');
    expect(text).toContain('provider config `organization`');
  });

  it('keeps Nunjucks tags in the prompt text and reports them', () => {
    expect(experiment.prompt).toContain('{% if playful %}Make it playful.{% endif %}');
    expect(whats(plan)).toContain('`{% if playful %}` in the prompt');
  });

  it('reports a regex JavaScript cannot compile instead of writing an invalid check', () => {
    expect(whats(plan)).toContain('`regex` assertion (tests[0].assert[1]): Invalid regular expression');
    expect(experiment.cases[0]?.checks).toEqual([{ type: 'word-count', value: { max: 5 } }]);
    expect(yaml['checks']).toEqual([]);
  });

  it('names the prompts that cannot be imported in the note', () => {
    expect(plan.notes.join('\n')).toContain(
      '1 "prompt.js" (cannot be imported), 2 "more/*.txt" (cannot be imported)',
    );
  });
});

describe('a chat prompt with response_format and tools from files (invoice-chat)', async () => {
  const { plan, experiment, file, yaml } = await importFixture('invoice-chat', 'promptfooconfig.yaml');

  it('writes the system message to system.md, the optimised part, and keeps the user message fixed', () => {
    expect(file('system.md')).toBe(
      'You extract invoices for the accounts team of {{company}}.\nLook the vendor up before you answer.\n',
    );
    expect(experiment.shape.parts.map((p) => [p.name, p.optimise])).toEqual([
      ['system', true],
      ['messages[0]', false],
    ]);
    expect(experiment.shape.parts[1]?.text).toBe('Extract this invoice:\n\n{{invoice}}');
    expect(experiment.cases[0]?.vars['company']).toBe('Brightwave Media Ltd');
  });

  it("turns the generator's response_format file into output.json_schema: the schema itself", () => {
    expect(yaml['output']).toEqual({ json_schema: 'schema.json' });
    expect(experiment.shape.output?.schema).toMatchObject({
      type: 'object',
      required: ['vendor_id', 'invoice_number', 'currency', 'total'],
    });
    expect(JSON.parse(file('schema.json'))).toEqual(experiment.shape.output?.schema);
  });

  it('turns OpenAI-format tools into a tools file, a missing parameters schema into an empty object', () => {
    expect(yaml['tools']).toBe('tools.json');
    expect(experiment.shape.tools?.definitions).toEqual([
      {
        name: 'lookup_vendor',
        description: 'Find a vendor in the register by the name printed on the invoice',
        parameters: {
          type: 'object',
          properties: { name: { type: 'string', description: "The vendor's name as printed" } },
          required: ['name'],
        },
      },
      { name: 'today', description: "Today's date", parameters: { type: 'object', properties: {} } },
    ]);
  });

  it("reports the tools it cannot offer, tool_choice, and the other provider's tools", () => {
    const text = whats(plan);
    expect(text).toContain(
      'the tool `convert currency` (providers[0].config.tools[2]): not a valid tool: name',
    );
    expect(text).toContain('(providers[0].config.tools[3]): a built-in `file_search` tool');
    expect(text).toContain('provider config `tool_choice`');
    expect(plan.notes.join('\n')).toContain(
      "anthropic:messages:claude-sonnet-4-5 (providers[1]) sets tools: only the generator's",
    );
    expect(experiment.models.generator).toEqual({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      temperature: 0,
    });
  });
});

describe('choosing the prompt', () => {
  it('refuses an index out of range, listing the prompts', async () => {
    const root = project('support-inline');
    const attempt = importPromptfoo({
      configPath: join(root, 'evals/support-inline/promptfooconfig.yaml'),
      name: 'x',
      promptIndex: 2,
      projectRoot: root,
    });
    await expect(attempt).rejects.toBeInstanceOf(AutoresearchError);
    await expect(attempt).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('--prompt-index 2 is out of range: the config has 2 prompts'),
    });
    await expect(attempt).rejects.toMatchObject({
      message: expect.stringContaining(
        '  1  You are a friendly support agent for Pageturner Books.  (prompts[1])',
      ),
    });
  });

  it('refuses a prompt function or glob, saying why', async () => {
    const root = project('gateway-mixed');
    const configPath = join(root, 'evals/gateway-mixed/promptfooconfig.json');
    await expect(
      importPromptfoo({ configPath, name: 'x', promptIndex: 1, projectRoot: root }),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('prompt 1 (prompt.js) cannot be imported: a prompt function'),
    });
    await expect(
      importPromptfoo({ configPath, name: 'x', promptIndex: 2, projectRoot: root }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('a glob of prompt files'),
    });
  });
});

describe('a config outside the project', () => {
  it('points at its files with absolute paths', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ar-pf-outside-'));
    roots.push(root);
    mkdirSync(join(root, 'experiments'));
    const plan = await importPromptfoo({
      configPath: join(FIXTURES, 'extraction-exec/promptfooconfig.yaml'),
      name: 'outside',
      projectRoot: root,
    });
    await writeImportedFiles(root, 'outside', plan.files, root);
    const { experiment } = await loadExperiment('outside', { cwd: root, env: {} });
    expect(experiment.models.generator.command?.[1]).toBe(
      join(FIXTURES, 'extraction-exec/scripts/model.mjs'),
    );
    const discount = experiment.cases.find((c) => c.id === 'invoice-with-a-discount');
    expect(discount?.checks[2]?.value).toBe(
      `file://${join(FIXTURES, 'extraction-exec/scripts/total-check.js')}:checkTotal`,
    );
  });
});

describe('configs with gaps', () => {
  async function importInline(files: Record<string, string>) {
    const root = mkdtempSync(join(tmpdir(), 'ar-pf-gaps-'));
    roots.push(root);
    mkdirSync(join(root, 'experiments'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const plan = await importPromptfoo({
      configPath: join(root, 'promptfooconfig.yaml'),
      name: 'gaps',
      projectRoot: root,
    });
    await writeImportedFiles(root, 'gaps', plan.files, root);
    return { plan, ...(await loadExperiment('gaps', { cwd: root, env: {} })) };
  }

  it('gives a var no test sets an empty value, as promptfoo renders it, and says so', async () => {
    const { plan, experiment } = await importInline({
      'promptfooconfig.yaml': 'prompts: ["Write about {{topic}} {{suffix}}"]\ntests: file://tests.yaml\n',
      'tests.yaml':
        '- vars: { topic: tea }\n  assert: [{ type: icontains, value: tea }]\n- vars: { topic: coffee, suffix: "!" }\n',
    });
    expect(experiment.cases.map((c) => c.vars)).toEqual([
      { topic: 'tea', suffix: '' },
      { topic: 'coffee', suffix: '!' },
    ]);
    expect(plan.notes.join('\n')).toContain('{{suffix}} had no value in 1 of 2 cases');
  });

  it('makes one case from defaultTest when there are no tests, and a general rubric when nothing else can be scored', async () => {
    const { plan, experiment } = await importInline({
      'promptfooconfig.yaml': 'prompts: "Describe {{thing}}"\ndefaultTest:\n  vars: { thing: a kettle }\n',
    });
    expect(experiment.cases).toHaveLength(1);
    expect(experiment.cases[0]?.vars).toEqual({ thing: 'a kettle' });
    expect(experiment.models.generator).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    const notes = plan.notes.join('\n');
    expect(notes).toContain('one case built from defaultTest vars');
    expect(notes).toContain('rubrics/gaps.md holds a general rubric');
    expect(notes).toContain('the config names no providers');
    expect(plan.files.map((f) => f.path)).toContain('rubrics/gaps.md');
    expect(experiment.rubric?.criteria.map((c) => c.key)).toEqual(['task_fulfilment', 'accuracy', 'clarity']);
  });

  it("reads a test's vars from a file:// mapping", async () => {
    const { experiment } = await importInline({
      'promptfooconfig.yaml':
        'prompts: ["Write about {{topic}} for {{reader}}"]\ntests:\n  - vars: file://vars/tea.yaml\n    assert: [{ type: icontains, value: tea }]\n',
      'vars/tea.yaml': 'topic: tea\nreader: a barista\n',
    });
    expect(experiment.cases[0]?.vars).toEqual({ topic: 'tea', reader: 'a barista' });
  });

  it('optimises the last user message of a chat prompt without a system message, keeping the few-shot turns', async () => {
    const chat = JSON.stringify([
      { role: 'user', content: 'Name a fruit' },
      { role: 'assistant', content: 'Apple' },
      { role: 'user', content: 'Name a {{thing}}' },
      { role: 'assistant', content: 'Sure:' },
    ]);
    const { plan, experiment } = await importInline({
      'promptfooconfig.yaml': `prompts: [${JSON.stringify(chat)}]\ntests:\n  - vars: { thing: tree }\n    assert: [{ type: icontains, value: oak }]\n`,
    });
    expect(experiment.shape.parts.map((p) => [p.name, p.role, p.text, p.optimise])).toEqual([
      ['messages[0]', 'user', 'Name a fruit', false],
      ['messages[1]', 'assistant', 'Apple', false],
      ['messages[2]', 'user', 'Name a {{thing}}\n', true],
    ]);
    expect(whats(plan)).toContain(
      'the assistant message #4, after the last user message (prompts[0]): the request must end with a user turn',
    );
  });

  it('reads an inline json_schema response_format and Anthropic-format tools; reports JSON mode without a schema', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const config = {
      prompts: ['Answer {{q}}'],
      providers: [
        {
          id: 'anthropic:messages:claude-sonnet-4-5',
          config: {
            response_format: { type: 'json_schema', json_schema: { name: 'a', schema } },
            tools: [{ name: 'search', input_schema: { type: 'object', properties: {} } }],
          },
        },
        { id: 'openai:gpt-4o', config: { response_format: { type: 'json_object' } } },
      ],
      tests: [{ vars: { q: 'x' }, assert: [{ type: 'contains', value: 'x' }] }],
    };
    const { experiment } = await importInline({ 'promptfooconfig.yaml': JSON.stringify(config) });
    expect(experiment.shape.output?.schema).toEqual(schema);
    expect(experiment.shape.tools?.definitions).toEqual([
      { name: 'search', parameters: { type: 'object', properties: {} } },
    ]);
    const json = await importInline({
      'promptfooconfig.yaml': JSON.stringify({ ...config, providers: [config.providers[1]] }),
    });
    expect(json.experiment.shape.output).toBeUndefined();
    expect(whats(json.plan)).toContain(
      'provider config `response_format` (providers[0].config.response_format): JSON mode without a schema',
    );
  });

  it('stops with a clear error when a response_format file is missing', async () => {
    await expect(
      importInline({
        'promptfooconfig.yaml':
          'prompts: ["x"]\nproviders: [{ id: openai:gpt-4o, config: { response_format: file://nope.json } }]\n',
      }),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('the response_format file nope.json does not exist'),
    });
  });

  it('stops with a clear error when a referenced tests file is missing', async () => {
    await expect(
      importInline({ 'promptfooconfig.yaml': 'prompts: ["x"]\ntests: file://nope.csv\n' }),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('the tests file nope.csv does not exist'),
    });
  });

  it('refuses a file that is not a promptfoo config', async () => {
    await expect(importInline({ 'promptfooconfig.yaml': '- just\n- a list\n' })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('is not a promptfoo config'),
    });
  });
});
