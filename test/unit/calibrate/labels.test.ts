/**
 * The labels file (docs/design/judge-reliability.md): what a clean file reads as, and every mistake at
 * its line with a hint.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type LabelsContext, readLabels } from '../../../src/calibrate/labels.js';
import { AutoresearchError, type Problem, ValidationError } from '../../../src/errors.js';
import type { Case } from '../../../src/experiment/types.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('ar-labels-');

function testCase(id: string): Case {
  return {
    id,
    vars: { topic: id },
    checks: [],
    expectations: [],
    split: 'train',
    source: { file: 'cases.yaml' },
  };
}

function context(overrides: { inputs?: boolean; rubric?: boolean } = {}): LabelsContext {
  return {
    experiment: {
      cases: [testCase('saas-cto'), testCase('clinic-owner')],
      ...(overrides.rubric === false
        ? {}
        : {
            rubric: {
              path: 'rubric.md',
              text: '',
              criteria: [
                { key: 'clarity', title: 'Clarity', weight: 1 },
                { key: 'relevance', title: 'Relevance', weight: 1 },
              ],
            },
          }),
      config: { judging: { inputs: overrides.inputs ?? false } } as LabelsContext['experiment']['config'],
    },
  };
}

async function write(text: string): Promise<string> {
  const file = join(tmp(), 'labels.yaml');
  await writeFile(file, text);
  return file;
}

async function problemsOf(text: string, ctx = context()): Promise<Problem[]> {
  const file = await write(text);
  try {
    await readLabels(file, ctx);
  } catch (error) {
    if (error instanceof ValidationError) return error.problems;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('readLabels', () => {
  it('reads inline and file outputs, cases, scores and expectations', async () => {
    await mkdir(join(tmp(), 'outputs'));
    await writeFile(join(tmp(), 'outputs', 'one.txt'), 'Subject: hi\n\nText from a file.\n');
    const file = await write(
      [
        '- output: "An inline email"',
        '  case: saas-cto',
        '  scores: { clarity: 4, relevance: 2 }',
        '  expectations: { "Names one concrete pain": pass, "Asks for a call": fail }',
        '- output: { file: outputs/one.txt }',
        '  scores: { clarity: 5 }',
        '',
      ].join('\n'),
    );
    const read = await readLabels(file, context());
    expect(read.warnings).toEqual([]);
    expect(read.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(read.labels).toEqual([
      {
        index: 0,
        line: 1,
        output: 'An inline email',
        file: null,
        caseId: 'saas-cto',
        scores: { clarity: 4, relevance: 2 },
        expectations: [
          { text: 'Names one concrete pain', pass: true },
          { text: 'Asks for a call', pass: false },
        ],
      },
      {
        index: 1,
        line: 5,
        output: 'Subject: hi\n\nText from a file.\n',
        file: 'outputs/one.txt',
        caseId: null,
        scores: { clarity: 5 },
        expectations: [],
      },
    ]);
  });

  it('reports every bad entry at its line, with the key path and a hint', async () => {
    const problems = await problemsOf(
      [
        '- output: "fine"', // 1
        '  scores: { clarity: 6 }', // 2
        '- output: "typo in a criterion"', // 3
        '  scores: { clarty: 3 }', // 4
        '- output: "unknown case"', // 5
        '  case: saas-ct', // 6
        '  scores: { clarity: 3 }', // 7
        '- output: "bad verdict"', // 8
        '  expectations: { "Says hello": passed }', // 9
        '- output: "labels nothing"', // 10
        '- outptu: "misspelt key"', // 11
        '  scores: { clarity: 3 }', // 12
        '- output: { file: missing.txt }', // 13
        '  scores: { clarity: 2.5 }', // 14
        '',
      ].join('\n'),
    );
    const brief = problems.map((p) => ({
      line: p.location.line,
      keyPath: p.keyPath,
      message: p.message,
      hint: p.hint,
    }));
    expect(brief).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          line: 2,
          keyPath: '[0].scores.clarity',
          message: expect.stringMatching(/<= 5/),
        }),
        expect.objectContaining({
          line: 4,
          keyPath: '[1].scores.clarty',
          message: '`clarty` is not a criterion of the rubric',
          hint: 'did you mean `clarity`?',
        }),
        expect.objectContaining({
          line: 6,
          keyPath: '[2].case',
          message: 'no case has the id `saas-ct`',
          hint: 'did you mean `saas-cto`?',
        }),
        expect.objectContaining({
          line: 9,
          keyPath: '[3].expectations.Says hello',
          message: expect.stringMatching(/not one of: pass, fail/),
          hint: 'did you mean `pass`?',
        }),
        expect.objectContaining({
          line: 10,
          keyPath: '[4]',
          message: expect.stringMatching(/labels nothing/),
        }),
        expect.objectContaining({ line: 11, keyPath: '[5].outptu', hint: 'did you mean `output`?' }),
        expect.objectContaining({
          line: 14,
          keyPath: '[6].scores.clarity',
          message: expect.stringMatching(/integer/),
        }),
      ]),
    );
    expect(problems.every((p) => p.location.file.endsWith('labels.yaml'))).toBe(true);
  });

  it('names a missing output file with where it was looked for', async () => {
    const problems = await problemsOf('- output: { file: missing.txt }\n  scores: { clarity: 2 }\n');
    expect(problems).toEqual([
      expect.objectContaining({
        location: expect.objectContaining({ line: 1 }),
        keyPath: '[0].output.file',
        message: 'output file "missing.txt" does not exist',
        hint: expect.stringContaining(join(tmp(), 'missing.txt')),
      }),
    ]);
  });

  it('refuses a file that is not a list, is empty, or labels scores without a rubric', async () => {
    expect((await problemsOf('output: "x"\n'))[0]?.message).toMatch(/must be a YAML list/);
    expect((await problemsOf('# nothing yet\n'))[0]?.message).toMatch(/empty/);
    const noRubric = await problemsOf(
      '- output: "x"\n  scores: { clarity: 3 }\n',
      context({ rubric: false }),
    );
    expect(noRubric[0]).toMatchObject({ keyPath: '[0].scores', message: expect.stringMatching(/no rubric/) });
  });

  it('warns when judging.inputs is on and an entry names no case', async () => {
    const file = await write('- output: "x"\n  scores: { clarity: 3 }\n');
    const read = await readLabels(file, context({ inputs: true }));
    expect(read.labels).toHaveLength(1);
    expect(read.warnings).toEqual([
      expect.objectContaining({
        severity: 'warning',
        keyPath: '[0]',
        hint: expect.stringMatching(/case: <id>/),
      }),
    ]);
  });

  it('a missing labels file is a usage error (exit 2) that says how to make one', async () => {
    const error = await readLabels(join(tmp(), 'nope.yaml'), context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AutoresearchError);
    expect((error as AutoresearchError).exitCode).toBe(2);
    expect((error as AutoresearchError).hint).toMatch(/init/);
  });
});

describe('readLabels: one output labelled twice', () => {
  it('contradictory verdicts are an error at the second entry, naming the first', async () => {
    const problems = await problemsOf(
      [
        '- { output: "Same email", case: saas-cto, scores: { clarity: 4, relevance: 2 } }',
        '- { output: "Other email", case: saas-cto, scores: { clarity: 1 } }',
        '- output: "Same email"',
        '  case: saas-cto',
        '  scores: { clarity: 2, relevance: 2 }',
        '  expectations: { "Asks for a call": fail }',
        '',
      ].join('\n'),
    );
    expect(problems).toEqual([
      {
        severity: 'error',
        location: { file: join(tmp(), 'labels.yaml'), line: 3 },
        keyPath: '[2].scores.clarity',
        message:
          'entry 2 labels the same output of case `saas-cto` as entry 0 (line 1) and disagrees: `clarity` 2 here, 4 there',
        hint: 'keep one verdict per output: settle it and delete the other entry',
      },
    ]);
  });

  it('an identical repeat is only a warning; the same text for another case is no repeat', async () => {
    const file = await write(
      [
        '- { output: "Same email", case: saas-cto, expectations: { "Asks for a call": pass } }',
        '- { output: "Same email", case: clinic-owner, expectations: { "Asks for a call": fail } }',
        '- { output: "Same email", case: saas-cto, expectations: { "Asks for a call": pass } }',
        '',
      ].join('\n'),
    );
    const read = await readLabels(file, context());
    expect(read.labels).toHaveLength(3);
    expect(read.warnings.map((p) => `${p.location.line} ${p.keyPath} ${p.severity}: ${p.message}`)).toEqual([
      '3 [2] warning: entry 2 labels the same output of case `saas-cto` as entry 0 (line 1) again, so that output counts twice',
    ]);
  });
});
