import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AutoresearchError, ValidationError } from '../../../src/errors.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/experiments');
const env = {};

async function problemsOf(ref: string, cwd = FIXTURES) {
  try {
    await loadExperiment(ref, { cwd, env });
  } catch (error) {
    if (error instanceof ValidationError) return error.problems;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('loadExperiment on a valid experiment', async () => {
  const { experiment, problems } = await loadExperiment(join(FIXTURES, 'basic'), { cwd: FIXTURES, env });

  it('resolves paths relative to the experiment file', () => {
    expect(experiment.file).toBe(join(FIXTURES, 'basic', 'experiment.yaml'));
    expect(experiment.promptPath).toBe(join(FIXTURES, 'basic', 'prompt.md'));
    expect(experiment.rubric?.path).toBe(join(FIXTURES, 'basic', 'rubric.md'));
    expect(experiment.prompt).toContain('{{ topic }}');
  });

  it('fills in defaults from the schema', () => {
    expect(experiment.config.search).toMatchObject({
      candidates: 2,
      samples: 2,
      noise_repeats: 3,
      min_improvement: 'auto',
    });
    expect(experiment.config.scoring.weights).toEqual({ checks: 0.4, judge: 0.4, expectations: 0.2 });
    expect(experiment.checks).toHaveLength(3);
  });

  it('loads and splits the cases, honouring labels', () => {
    expect(experiment.cases.map((c) => c.id)).toEqual([
      'tides',
      'volcanoes',
      expect.stringMatching(/^case-[0-9a-f]{8}$/),
      'rainbows',
      'seasons',
    ]);
    const byId = Object.fromEntries(experiment.cases.map((c) => [c.id, c]));
    expect(byId['rainbows']?.split).toBe('holdout');
    expect(byId['seasons']?.split).toBe('train');
    expect(experiment.cases.filter((c) => c.split === 'holdout')).toHaveLength(1);
    expect(byId['tides']).toMatchObject({
      checks: [{ type: 'icontains', value: 'moon' }],
      expectations: ['Mentions the moon'],
      source: { file: join(FIXTURES, 'basic', 'cases.yaml'), line: 1 },
    });
  });

  it('parses the rubric criteria with weights', () => {
    expect(experiment.rubric?.criteria).toEqual([
      { key: 'clarity', title: 'Clarity', weight: 2 },
      { key: 'scientific_accuracy', title: 'Scientific accuracy', weight: 1 },
    ]);
  });

  it('resolves the models per role', () => {
    expect(experiment.models.mutator).toBe(experiment.models.generator);
    expect(experiment.models.judge).toEqual({ provider: 'sim', temperature: 0, samples: 2 });
    expect(experiment.models.grader).toEqual({ provider: 'sim', temperature: 0 });
  });

  it('returns warnings only, also on the experiment', () => {
    expect(problems.every((p) => p.severity === 'warning')).toBe(true);
    expect(problems.map((p) => p.message)).toEqual([
      '`{{not a placeholder}}` is not a placeholder and is sent as written',
    ]);
    expect(experiment.warnings).toEqual(problems);
  });
});

describe('loadExperiment with other case formats and roles', () => {
  it('loads CSV cases with reserved columns', async () => {
    const { experiment } = await loadExperiment(join(FIXTURES, 'csv-cases', 'experiment.yaml'), {
      cwd: '/',
      env,
    });
    expect(experiment.cases.map((c) => [c.id, c.split, c.vars])).toEqual([
      ['first', 'train', { title: 'Tides, moons and you', reader: 'kids' }],
      [expect.stringMatching(/^case-/), 'holdout', { title: 'He said "hi"', reader: 'adults' }],
      ['third', 'train', { title: 'Two\nlines', reader: 'adults' }],
    ]);
  });

  it('takes a judge program and defaults the grader to the generator', async () => {
    const { experiment, problems } = await loadExperiment(join(FIXTURES, 'program-judge'), { cwd: '/', env });
    expect(experiment.models.judge).toEqual({ command: ['node', 'my-judge.mjs'] });
    expect(experiment.models.grader).toEqual({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      max_tokens: 300,
      temperature: 0,
    });
    expect(problems.map((p) => p.message)).toContain(
      'ANTHROPIC_API_KEY is not set (needed by generator, mutator, grader)',
    );
    const withKey = await loadExperiment(join(FIXTURES, 'program-judge'), {
      cwd: '/',
      env: { ANTHROPIC_API_KEY: 'x' },
    });
    expect(withKey.problems.filter((p) => p.message.includes('ANTHROPIC_API_KEY'))).toEqual([]);
  });
});

describe('loadExperiment references and problems', () => {
  const root = mkdtempSync(join(tmpdir(), 'ar-load-'));
  cpSync(join(FIXTURES, 'basic'), join(root, 'experiments', 'basic'), { recursive: true });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds an experiment by name, folder or file, from anywhere in the project', async () => {
    const file = join(root, 'experiments', 'basic', 'experiment.yaml');
    for (const [ref, cwd] of [
      ['basic', root],
      ['basic', join(root, 'experiments', 'basic')],
      ['experiments/basic', root],
      [file, '/'],
    ] as const) {
      const { experiment } = await loadExperiment(ref, { cwd, env });
      expect(experiment.file).toBe(file);
    }
  });

  it('says which experiments exist when the name is unknown', async () => {
    const attempt = loadExperiment('basik', { cwd: root, env });
    await expect(attempt).rejects.toThrow(AutoresearchError);
    await expect(attempt).rejects.toMatchObject({
      code: 'E_NOT_FOUND',
      exitCode: 2,
      hint: expect.stringContaining('basic'),
    });
  });

  it('reports problems of every file together, in file then line order, errors first', async () => {
    const dir = join(root, 'experiments', 'mixed');
    cpSync(join(FIXTURES, 'basic'), dir, { recursive: true });
    writeFileSync(
      join(dir, 'experiment.yaml'),
      'name: mixed\nprompt: prompt.md\ncases: cases.yaml\nrubric: rubric.md\nmodels:\n  generator: { provider: sim }\nchecks:\n  - { type: nope }\nbudgett: 3\n',
    );
    writeFileSync(
      join(dir, 'cases.yaml'),
      '- id: a\n  vars: { topic: t }\n- id: a\n  vars: { topic: t, audience: x }\n- id: b\n  vars: { topic: t, audience: x }\n',
    );
    writeFileSync(join(dir, 'rubric.md'), '# nothing\n');
    const problems = await problemsOf('mixed', root);
    expect(
      problems.map((p) => [p.severity, p.location.file.slice(dir.length + 1), p.location.line, p.keyPath]),
    ).toEqual([
      ['error', 'experiment.yaml', 8, 'checks[0].type'],
      ['error', 'experiment.yaml', 9, 'budgett'],
      ['error', 'cases.yaml', 2, '[0].vars'],
      ['error', 'cases.yaml', 3, '[1].id'],
      ['error', 'rubric.md', 1, ''],
      ['warning', 'prompt.md', 7, ''],
    ]);
  });

  it('refuses drift-anchor settings out of range, at their lines (docs/design/judge-reliability.md)', async () => {
    const dir = join(root, 'experiments', 'anchors');
    cpSync(join(FIXTURES, 'basic'), dir, { recursive: true });
    writeFileSync(
      join(dir, 'experiment.yaml'),
      'name: anchors\nprompt: prompt.md\ncases: cases.yaml\nrubric: rubric.md\nmodels:\n  generator: { provider: sim }\njudging:\n  anchors: -1\n  anchor_every: 0\n',
    );
    const problems = await problemsOf('anchors', root);
    expect(
      problems
        .filter((p) => p.severity === 'error')
        .map((p) => [p.location.file.slice(dir.length + 1), p.location.line, p.keyPath]),
    ).toEqual([
      ['experiment.yaml', 8, 'judging.anchors'],
      ['experiment.yaml', 9, 'judging.anchor_every'],
    ]);
  });

  it('refuses a file that is not a mapping and an experiment that scores nothing', async () => {
    const dir = join(root, 'experiments', 'odd');
    cpSync(join(FIXTURES, 'basic'), dir, { recursive: true });
    writeFileSync(join(dir, 'experiment.yaml'), '- just\n- a list\n');
    expect((await problemsOf('odd', root))[0]?.message).toContain('must be a mapping');
    writeFileSync(
      join(dir, 'experiment.yaml'),
      'name: odd\nprompt: prompt.md\ncases: c.yaml\nmodels:\n  generator: { provider: sim }\n',
    );
    writeFileSync(
      join(dir, 'c.yaml'),
      '- vars: { topic: t, audience: a }\n- vars: { topic: u, audience: a }\n- vars: { topic: v, audience: a }\n',
    );
    const problems = await problemsOf('odd', root);
    expect(problems.filter((p) => p.severity === 'error').map((p) => p.message)).toEqual([
      'nothing to score: the experiment has no checks, no rubric and no expectations',
    ]);
  });

  it('draws the sealed test split with search.test, and warns when it took every holdout case', async () => {
    const dir = join(root, 'experiments', 'sealed');
    cpSync(join(FIXTURES, 'basic'), dir, { recursive: true });
    const config = (search: string) =>
      `name: sealed\nprompt: prompt.md\ncases: c.yaml\nmodels:\n  generator: { provider: sim }\nchecks: [{ type: contains, value: a }]\nsearch: ${search}\n`;
    writeFileSync(
      join(dir, 'c.yaml'),
      Array.from({ length: 20 }, (_, i) => `- { id: c${i}, vars: { topic: t${i}, audience: a } }\n`).join(''),
    );
    writeFileSync(join(dir, 'experiment.yaml'), config('{ holdout: 0.2, test: 0.25 }'));
    const sealed = (await loadExperiment('sealed', { cwd: root, env })).experiment;
    writeFileSync(join(dir, 'experiment.yaml'), config('{ holdout: 0.2 }'));
    const open = (await loadExperiment('sealed', { cwd: root, env })).experiment;
    expect(sealed.config.search.test).toBe(0.25);
    expect(open.config.search.test).toBe(0);
    expect(sealed.cases.filter((c) => c.split === 'test')).toHaveLength(5);
    sealed.cases.forEach((c, i) => {
      if (c.split !== 'test') expect(c.split).toBe(open.cases[i]?.split);
    });
    // Three cases, one holdout by the version-1 rank (`a` ranks first under seed 1): labelling
    // that case `test` leaves no holdout, and validate says why.
    writeFileSync(
      join(dir, 'c.yaml'),
      ['a', 'b', 'c'].map((id) => `- { id: ${id}, vars: { topic: ${id}, audience: x } }\n`).join(''),
    );
    writeFileSync(join(dir, 'experiment.yaml'), config('{ holdout: 0.34 }'));
    const before = await loadExperiment('sealed', { cwd: root, env });
    expect(before.experiment.cases.map((c) => c.split)).toEqual(['holdout', 'train', 'train']);
    writeFileSync(
      join(dir, 'c.yaml'),
      ['a', 'b', 'c']
        .map(
          (id) =>
            `- { id: ${id}, vars: { topic: ${id}, audience: x }${id === 'a' ? ', split: test' : ''} }\n`,
        )
        .join(''),
    );
    const after = await loadExperiment('sealed', { cwd: root, env });
    expect(after.experiment.cases.map((c) => c.split)).toEqual(['test', 'train', 'train']);
    expect(after.problems.map((p) => p.message)).toContain(
      'no holdout case: the test split drew the 1 holdout case(s), so overfitting goes unchecked during the run',
    );
  });

  it('refuses weights that zero out every signal the experiment has', async () => {
    const dir = join(root, 'experiments', 'zero');
    cpSync(join(FIXTURES, 'basic'), dir, { recursive: true });
    writeFileSync(
      join(dir, 'experiment.yaml'),
      'name: zero\nprompt: prompt.md\ncases: c.yaml\nmodels:\n  generator: { provider: sim }\nchecks: [{ type: contains, value: a }]\nscoring:\n  weights: { checks: 0 }\n',
    );
    writeFileSync(
      join(dir, 'c.yaml'),
      '- vars: { topic: t, audience: a }\n- vars: { topic: u, audience: a }\n- vars: { topic: v, audience: a }\n',
    );
    const [problem] = await problemsOf('zero', root);
    expect(problem).toMatchObject({ keyPath: 'scoring.weights', location: { line: 8 } });
    expect(problem?.message).toContain('(checks) all have weight 0');
  });
});

describe('loadExperiment and the acceptance rule (docs/design/paired-acceptance.md)', () => {
  const root = mkdtempSync(join(tmpdir(), 'ar-accept-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const THREE = '- vars: { x: a }\n- vars: { x: b }\n- vars: { x: c }\n';
  let count = 0;

  /** An experiment with `search` as written (none when undefined) and these cases. */
  async function attempt(search: string | undefined, cases: string) {
    const dir = join(root, `e${++count}`);
    cpSync(join(FIXTURES, 'basic'), dir, { recursive: true });
    const searchYaml = search === undefined ? '' : `search:\n${search}`;
    writeFileSync(
      join(dir, 'experiment.yaml'),
      `name: e\nprompt: p.md\ncases: c.yaml\nmodels:\n  generator: { provider: sim }\nchecks: [{ type: contains, value: a }]\n${searchYaml}`,
    );
    writeFileSync(join(dir, 'p.md'), 'Write {{x}}.');
    writeFileSync(join(dir, 'c.yaml'), cases);
    try {
      return { ...(await loadExperiment(dir, { cwd: dir, env })), dir };
    } catch (error) {
      if (error instanceof ValidationError) return { problems: error.problems, dir };
      throw error;
    }
  }
  const brief = (
    problems: readonly { severity: string; location: { file: string; line?: number }; keyPath: string }[],
    dir: string,
  ) => problems.map((p) => [p.severity, p.location.file.slice(dir.length + 1), p.location.line, p.keyPath]);

  it('refuses paired acceptance with one train case, at the acceptance key, with a way out', async () => {
    const { problems, dir } = await attempt(
      '  holdout: 0.25\n  acceptance: paired\n',
      '- vars: { x: a }\n- vars: { x: b }\n',
    );
    expect(brief(problems, dir)).toEqual([['error', 'experiment.yaml', 9, 'search.acceptance']]);
    expect(problems[0]?.message).toContain('needs at least 2 train cases; this experiment has 1');
    expect(problems[0]?.hint).toContain('acceptance: margin');
  });

  it('points at `search:` when acceptance is the default, and at the cases without a search key', async () => {
    const onSearch = await attempt('  holdout: 0\n', '- vars: { x: a }\n');
    expect(brief(onSearch.problems, onSearch.dir)).toEqual([
      ['error', 'experiment.yaml', 7, 'search.acceptance'],
    ]);
    const onCases = await attempt(undefined, '# one case\n- vars: { x: a }\n');
    expect(brief(onCases.problems, onCases.dir)).toEqual([
      ['error', 'c.yaml', 2, 'search.acceptance'],
      ['warning', 'experiment.yaml', 1, 'search.holdout'],
    ]);
  });

  it('takes one train case under margin, and a number for min_improvement means margin', async () => {
    for (const search of [
      '  holdout: 0\n  acceptance: margin\n',
      '  holdout: 0\n  min_improvement: 0.02\n',
    ]) {
      const { problems } = await attempt(search, '- vars: { x: a }\n');
      expect(problems).toEqual([]);
    }
  });

  it('warns that confirm is ignored under paired, and not under margin', async () => {
    const paired = await attempt('  confirm: true\n', THREE);
    expect(brief(paired.problems, paired.dir)).toEqual([['warning', 'experiment.yaml', 8, 'search.confirm']]);
    expect(paired.problems[0]?.message).toContain('ignored under paired acceptance');
    expect((await attempt('  confirm: true\n  min_improvement: 0.02\n', THREE)).problems).toEqual([]);
  });

  it('refuses the pareto search under margin acceptance, and takes greedy there', async () => {
    const { problems, dir } = await attempt('  acceptance: margin\n  strategy: pareto\n', THREE);
    expect(brief(problems, dir)).toEqual([['error', 'experiment.yaml', 9, 'search.strategy']]);
    expect(problems[0]?.hint).toContain('strategy: greedy');
    expect((await attempt('  acceptance: margin\n  strategy: greedy\n', THREE)).problems).toEqual([]);
    expect((await attempt('  strategy: pareto\n', THREE)).problems).toEqual([]);
  });

  it('warns that a numeric min_improvement belongs to margin when paired is written out', async () => {
    const { problems, dir } = await attempt('  acceptance: paired\n  min_improvement: 0.03\n', THREE);
    expect(brief(problems, dir)).toEqual([['warning', 'experiment.yaml', 9, 'search.min_improvement']]);
    expect(problems[0]?.message).toContain("the margin rule's threshold");
    expect(problems[0]?.hint).toContain('min_effect: 0.03');
  });

  it('warns that a minibatch larger than the train cases turns screening off', async () => {
    const { problems, dir } = await attempt('  minibatch: 5\n', THREE);
    expect(brief(problems, dir)).toEqual([['warning', 'experiment.yaml', 8, 'search.minibatch']]);
    expect(problems[0]?.message).toBe(
      'a minibatch of 5 is larger than the 2 train cases, so screening is off: every proposal is evaluated on every case',
    );
    // As large as the train cases: screening off on purpose, no warning.
    expect((await attempt('  minibatch: 2\n', THREE)).problems).toEqual([]);
  });
});
