import { describe, expect, it } from 'vitest';
import { ExperimentFile } from '../../../src/experiment/schema.js';
import { locate, parseYamlSource } from '../../../src/experiment/yaml-source.js';
import { describeIssues } from '../../../src/experiment/zod-problems.js';

function problemsOf(text: string) {
  const source = parseYamlSource('/e.yaml', text);
  const result = ExperimentFile.safeParse(source.data);
  if (result.success) return [];
  return describeIssues(result.error.issues, {
    file: '/e.yaml',
    schema: ExperimentFile,
    data: source.data,
    locate: (path) => locate(source, path),
  });
}

const BASE = 'name: x\nprompt: p.md\ncases: c.yaml\nmodels:\n  generator: { provider: sim }\n';

describe('describeIssues', () => {
  it('accepts a minimal experiment', () => {
    expect(problemsOf(BASE)).toEqual([]);
  });

  it('names unknown keys with a did-you-mean, at their own line', () => {
    const problems = problemsOf(`${BASE}descripton: hi\n`);
    expect(problems).toEqual([
      expect.objectContaining({
        keyPath: 'descripton',
        message: 'unknown key `descripton`',
        hint: 'did you mean `description`?',
        location: { file: '/e.yaml', line: 6, col: 1 },
      }),
    ]);
  });

  it('lists the allowed keys when nothing is close', () => {
    const [problem] = problemsOf(`${BASE}search: { zzzzzzzz: 1 }\n`);
    expect(problem?.keyPath).toBe('search.zzzzzzzz');
    expect(problem?.hint).toContain('allowed here: candidates, samples');
  });

  it('suggests keys of the union branch the user meant (model entry or program)', () => {
    const model = problemsOf(`${BASE}  judge: { provider: sim, modle: m }\n`);
    expect(model).toEqual([
      expect.objectContaining({ keyPath: 'models.judge.modle', hint: 'did you mean `model`?' }),
    ]);
    const program = problemsOf(`${BASE}  grader: { command: [x], timout_s: 3 }\n`);
    expect(program).toEqual([
      expect.objectContaining({ keyPath: 'models.grader.timout_s', hint: 'did you mean `timeout_s`?' }),
    ]);
  });

  it('describes wrong types and missing keys in YAML words', () => {
    const problems = problemsOf('name: x\nprompt: [a]\nmodels:\n  generator: { provider: sim }\n');
    expect(problems.map((p) => [p.keyPath, p.message])).toEqual([
      ['prompt', 'expected a string, got a list'],
      ['cases', 'missing required key `cases`'],
    ]);
  });

  it('suggests the closest enum value', () => {
    const [problem] = problemsOf(BASE.replace('provider: sim', 'provider: opneai'));
    expect(problem?.message).toContain('"opneai" is not one of');
    expect(problem?.hint).toBe('did you mean `openai`?');
  });

  it('prefers the union branch whose type matches', () => {
    const [problem] = problemsOf(`${BASE}search: { min_improvement: aut }\n`);
    expect(problem).toMatchObject({ keyPath: 'search.min_improvement', hint: 'did you mean `auto`?' });
    const [judge] = problemsOf(`${BASE}  judge: 3\n`);
    expect(judge?.message).toBe('expected a mapping, got 3');
  });

  it('states limits with the value given', () => {
    const [problem] = problemsOf(`${BASE}concurrency: 0\n`);
    expect(problem).toMatchObject({ keyPath: 'concurrency', message: 'must be >= 1 (got 0)' });
    const [holdout] = problemsOf(`${BASE}search:\n  holdout: 1\n`);
    expect(holdout?.location.line).toBe(7);
    expect(holdout?.hint).toContain('train cases');
  });

  it('keeps messages written in the schema and shows the value', () => {
    const [problem] = problemsOf(BASE.replace('name: x', 'name: Bad Name'));
    expect(problem?.message).toBe('"Bad Name": use lowercase letters, digits and dashes');
  });
});
