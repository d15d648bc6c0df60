import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors.js';
import { loadExperimentFile } from '../../../src/experiment/load-experiment.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('validate-agent-');

/** An agent experiment in a fresh folder; `agent` and `generator` are YAML fragments. */
async function experiment(over: { agent?: string; generator?: string; cases?: string; extra?: string } = {}) {
  const dir = tmp();
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await mkdir(join(dir, 'cases/a'), { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), 'Write RELEASE_NOTES.md.');
  const cases = ['a', 'b', 'c'].map(
    (id) => `- id: ${id}\n  vars: { version: "1.0", task: "go" }\n  fixtures: cases/a\n`,
  );
  await writeFile(join(dir, 'cases.yaml'), over.cases ?? cases.join(''));
  await writeFile(
    join(dir, 'experiment.yaml'),
    [
      'name: agent-test',
      'prompt: SKILL.md',
      'cases: cases.yaml',
      `agent: ${over.agent ?? '{ place: skill, name: notes, task: "Release {{version}}", fixtures: fixtures }'}`,
      'models:',
      `  generator: ${over.generator ?? '{ provider: sim }'}`,
      '  mutator: { provider: sim }',
      'checks: [{ type: contains, value: "x" }]',
      over.extra ?? '',
    ].join('\n'),
  );
  return join(dir, 'experiment.yaml');
}

async function errors(file: string): Promise<{ keyPath: string; message: string; line?: number }[]> {
  try {
    await loadExperimentFile(file, {});
  } catch (error) {
    if (error instanceof ValidationError)
      return error.problems
        .filter((p) => p.severity === 'error')
        .map((p) => ({
          keyPath: p.keyPath,
          message: p.message,
          ...(p.location.line ? { line: p.location.line } : {}),
        }));
    throw error;
  }
  return [];
}

describe('an agent experiment', () => {
  it('loads, with its folders made absolute and its limits in the seam’s units', async () => {
    const file = await experiment();
    const { experiment: loaded } = await loadExperimentFile(file, {});
    expect(loaded.agent).toEqual({
      place: 'skill',
      name: 'notes',
      task: 'Release {{version}}',
      fixtures: join(file, '..', 'fixtures'),
      git: false,
      limits: { maxTurns: 30, timeoutMs: 600_000 },
    });
    expect(loaded.cases[0]?.fixtures).toBe(join(file, '..', 'cases/a'));
  });

  it('is run by an agent: an API provider as its generator is refused at its line', async () => {
    expect(
      await errors(await experiment({ generator: '{ provider: openai, model: gpt-4.1-mini }' })),
    ).toEqual([
      expect.objectContaining({
        keyPath: 'models.generator.provider',
        line: 6,
        message: expect.stringContaining('the openai provider is not one'),
      }),
    ]);
  });

  it('refuses a skill without a name, Codex with an agent definition, and folders that are not there', async () => {
    expect(await errors(await experiment({ agent: '{ place: skill, fixtures: nowhere }' }))).toEqual([
      expect.objectContaining({ keyPath: 'agent.name' }),
      expect.objectContaining({
        keyPath: 'agent.fixtures',
        message: expect.stringContaining('does not exist'),
      }),
    ]);
    expect(
      await errors(
        await experiment({ agent: '{ place: agent, name: reviewer }', generator: '{ provider: codex-cli }' }),
      ),
    ).toEqual([
      expect.objectContaining({ keyPath: 'agent.place', message: expect.stringContaining('Codex') }),
    ]);
  });

  it('refuses a Codex tool Codex does not have, naming the ones it has', async () => {
    const problems = await errors(
      await experiment({
        agent: '{ place: instructions, task: "go", tools: [exec_command, Bash] }',
        generator: '{ provider: codex-cli }',
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({ keyPath: 'agent.tools', message: 'Codex has no tool named `Bash`' }),
    ]);
  });

  it('needs the key the proxy adds, not a CLI login, and says why', async () => {
    const file = await experiment({ generator: '{ provider: claude-cli }' });
    const { problems } = await loadExperimentFile(file, {});
    const warning = problems.find((p) => p.keyPath === 'models.generator');
    expect(warning?.message).toBe('ANTHROPIC_API_KEY is not set (needed by generator)');
    expect(warning?.hint).toContain(
      'A CLI login (`claude auth login`, a subscription) is not used for agent cases',
    );
    const keyed = await loadExperimentFile(file, { ANTHROPIC_API_KEY: 'k' });
    expect(keyed.problems.filter((p) => p.message.includes('API_KEY'))).toEqual([]);
  });

  it('checks the task’s placeholders against the cases like the prompt’s', async () => {
    const problems = await errors(await experiment({ agent: '{ task: "Release {{missing}}" }' }));
    expect(problems).toEqual([expect.objectContaining({ message: expect.stringContaining('missing') })]);
  });

  it('refuses the prompt shapes an agent case cannot take', async () => {
    const problems = await errors(
      await experiment({
        cases: '- id: a\n  messages: [{ role: user, content: hi }]\n- id: b\n- id: c\n',
        extra: 'output: { json_schema: s.json }',
      }),
    );
    expect(problems.map((p) => p.keyPath)).toEqual(expect.arrayContaining(['output', '[0].messages']));
  });
});

describe('case fixtures', () => {
  it('are refused without an agent block, at the case', async () => {
    const dir = tmp();
    await writeFile(join(dir, 'prompt.md'), 'Say {{x}}');
    await writeFile(
      join(dir, 'cases.yaml'),
      '- id: a\n  vars: { x: "1" }\n  fixtures: somewhere\n- id: b\n  vars: { x: "2" }\n- id: c\n  vars: { x: "3" }\n',
    );
    await writeFile(
      join(dir, 'experiment.yaml'),
      'name: t\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: sim }\n  mutator: { provider: sim }\nchecks: [{ type: contains, value: "x" }]\n',
    );
    expect(await errors(join(dir, 'experiment.yaml'))).toEqual([
      expect.objectContaining({
        keyPath: '[0].fixtures',
        line: 3,
        message: expect.stringContaining('only agent cases'),
      }),
    ]);
  });
});
