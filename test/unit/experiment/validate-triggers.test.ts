// A skill-trigger experiment's cases (docs/agents.md "Tuning when a skill triggers"): should_trigger
// becomes the case's skill-used or not-skill-used check; a value that is no boolean, or a case
// asking about a skill the experiment does not optimise, is an error at its line.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors.js';
import { loadExperimentFile } from '../../../src/experiment/load-experiment.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('validate-triggers-');

const CASES = [
  '- id: wants-it',
  '  vars: { query: "Add a migration for the orders table" }',
  '  should_trigger: true',
  '- id: does-not',
  '  vars: { query: "What is an index?" }',
  '  should_trigger: false',
  '',
].join('\n');

async function experiment(
  over: { agent?: string; cases?: string; casesFile?: string; checks?: string } = {},
) {
  const dir = tmp();
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'SKILL.md'),
    '---\nname: sql-migrations\ndescription: Database work.\n---\nWrite it.\n',
  );
  const casesFile = over.casesFile ?? 'cases.yaml';
  await writeFile(join(dir, casesFile), over.cases ?? CASES);
  await writeFile(
    join(dir, 'experiment.yaml'),
    [
      'name: triggers',
      'prompt: SKILL.md',
      `cases: ${casesFile}`,
      over.agent ?? 'agent: { place: skill, name: sql-migrations, task: "{{query}}", max_turns: 3 }',
      'models: { generator: { provider: sim } }',
      over.checks ?? '',
      'scoring: { weights: { checks: 1, judge: 0, expectations: 0 } }',
      'search: { holdout: 0 }',
    ].join('\n'),
  );
  return join(dir, 'experiment.yaml');
}

async function errors(file: string) {
  try {
    await loadExperimentFile(file, {});
  } catch (error) {
    if (error instanceof ValidationError)
      return error.problems
        .filter((p) => p.severity === 'error')
        .map((p) => ({
          file: p.location.file.split('/').at(-1),
          line: p.location.line,
          keyPath: p.keyPath,
          message: p.message,
          hint: p.hint,
        }));
    throw error;
  }
  return [];
}

describe('should_trigger', () => {
  it("becomes the case's skill-used or not-skill-used check, so a checks-only experiment loads", async () => {
    const { experiment: loaded } = await loadExperimentFile(await experiment(), {});
    expect(loaded.cases.map((c) => [c.id, c.checks])).toEqual([
      ['wants-it', [{ type: 'skill-used' }]],
      ['does-not', [{ type: 'not-skill-used' }]],
    ]);
    expect(loaded.config.scoring.weights).toEqual({ checks: 1, judge: 0, expectations: 0 });
  });

  it('is read from a CSV column too, true or false in any case', async () => {
    const csv = 'id,query,should_trigger\nwants-it,Add a migration,TRUE\ndoes-not,What is an index?,false\n';
    const { experiment: loaded } = await loadExperimentFile(
      await experiment({ cases: csv, casesFile: 'cases.csv' }),
      {},
    );
    expect(loaded.cases.map((c) => [c.vars, c.checks[0]?.type])).toEqual([
      [{ query: 'Add a migration' }, 'skill-used'],
      [{ query: 'What is an index?' }, 'not-skill-used'],
    ]);
  });

  it('refuses a value that is not true or false, naming the file, the key and the line', async () => {
    const cases = CASES.replace('should_trigger: false', 'should_trigger: "no"');
    expect(await errors(await experiment({ cases }))).toEqual([
      expect.objectContaining({
        file: 'cases.yaml',
        line: 6,
        keyPath: '[1].should_trigger',
        message: 'expected a boolean, got "no"',
        hint: expect.stringContaining('write true'),
      }),
    ]);
    const csv = 'id,query,should_trigger\na,Add a migration,yes\n';
    // (Its only case refused, the experiment has nothing to score either: reported after it.)
    expect((await errors(await experiment({ cases: csv, casesFile: 'cases.csv' })))[0]).toMatchObject({
      file: 'cases.csv',
      line: 2,
      keyPath: '[0].should_trigger',
    });
  });

  it('needs an experiment that optimises a skill, and so does skill-used without a value', async () => {
    const agent = 'agent: { place: instructions, task: "{{query}}" }';
    const found = await errors(
      await experiment({
        agent,
        checks: 'checks: [{ type: skill-used }, { type: not-skill-used, value: pdf }]',
      }),
    );
    expect(found).toEqual([
      expect.objectContaining({
        file: 'experiment.yaml',
        keyPath: 'checks[0].type',
        message: expect.stringContaining('`agent.place` is `instructions`'),
        hint: expect.stringContaining('place: skill'),
      }),
      expect.objectContaining({ file: 'cases.yaml', line: 3, keyPath: '[0].should_trigger' }),
      expect.objectContaining({ file: 'cases.yaml', line: 6, keyPath: '[1].should_trigger' }),
    ]);
    const none = await errors(await experiment({ agent: '' }));
    expect(none.find((p) => p.keyPath === '[0].should_trigger')).toMatchObject({
      keyPath: '[0].should_trigger',
      message: expect.stringContaining('no `agent:` block'),
    });
  });
});
