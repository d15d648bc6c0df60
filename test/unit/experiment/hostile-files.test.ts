import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors.js';
import { readRawCases } from '../../../src/experiment/cases/load-cases.js';
import { manyYamlCasesWarning } from '../../../src/experiment/cases/read-yaml-cases.js';
import { findInvalidUtf8 } from '../../../src/experiment/find-invalid-utf8.js';
import { loadExperimentFile } from '../../../src/experiment/load-experiment.js';
import { validatePrompt } from '../../../src/experiment/validate-prompt.js';
import { useTempDir } from '../../helpers/temp-dir.js';

/** A path prompt: one template, the prompt file. */
function validateOne(
  file: string,
  text: string,
  casesFile: string,
  cases: Parameters<typeof validatePrompt>[2],
) {
  return validatePrompt([{ name: 'prompt', file, text }], casesFile, cases);
}

const BASIC = resolve(import.meta.dirname, '../../fixtures/experiments/basic');
const tmp = useTempDir('ar-hostile-files-');

/** A copy of the basic experiment with `file` replaced by `bytes`; the problems its load reports. */
async function problemsWith(file: string, bytes: Buffer) {
  const dir = tmp();
  cpSync(BASIC, dir, { recursive: true });
  writeFileSync(join(dir, file), bytes);
  try {
    await loadExperimentFile(join(dir, 'experiment.yaml'), {});
  } catch (error) {
    if (error instanceof ValidationError)
      return error.problems.map((p) => ({
        ...p,
        location: { ...p.location, file: p.location.file.slice(dir.length + 1) },
      }));
    throw error;
  }
  throw new Error('expected a ValidationError');
}

/** The file's text with one Latin-1 `é` (0xE9, not UTF-8) written in place of `needle`'s first character. */
function withLatin1(file: string, needle: string): Buffer {
  const text = readFileSync(join(BASIC, file), 'utf8');
  const at = Buffer.byteLength(text.slice(0, text.indexOf(needle)));
  const bytes = Buffer.from(text);
  bytes[at] = 0xe9;
  return bytes;
}

describe('invalid UTF-8 in an experiment file', () => {
  it('invalid UTF-8 in an experiment file (prompt, cases, rubric, experiment.yaml) is an error at its file:line', async () => {
    for (const [file, needle] of [
      ['prompt.md', 'two'],
      ['cases.yaml', 'tides'],
      ['rubric.md', 'Clarity'],
      ['experiment.yaml', 'Two-sentence'],
    ] as const) {
      const text = readFileSync(join(BASIC, file), 'utf8');
      const before = text.slice(0, text.indexOf(needle));
      const line = before.split('\n').length;
      const col = before.length - before.lastIndexOf('\n');
      const problems = await problemsWith(file, withLatin1(file, needle));
      const errors = problems.filter((p) => p.severity === 'error');
      expect(errors, file).toHaveLength(1);
      expect(errors[0], file).toMatchObject({
        location: { file, line, col },
        message: 'not valid UTF-8: byte 0xE9 does not decode',
      });
      expect(errors[0]?.hint).toContain('save the file as UTF-8');
    }
  });

  it('finds the first byte that does not decode, counting columns in characters', () => {
    expect(findInvalidUtf8(Buffer.from('plain\nné ✓ 😀\n'))).toBeUndefined();
    expect(findInvalidUtf8(Buffer.from([0x61, 0x0a, 0xc3, 0xa9, 0x62, 0xff]))).toEqual({
      line: 2,
      col: 3,
      byte: '0xFF',
    });
    // An overlong encoding, a lone surrogate and a sequence cut off at the end are not UTF-8.
    expect(findInvalidUtf8(Buffer.from([0xc0, 0xaf]))).toMatchObject({ line: 1, col: 1, byte: '0xC0' });
    expect(findInvalidUtf8(Buffer.from([0x41, 0xed, 0xa0, 0x80]))).toMatchObject({ col: 2, byte: '0xED' });
    expect(findInvalidUtf8(Buffer.from([0x0a, 0x0a, 0x41, 0xe2, 0x82]))).toEqual({
      line: 3,
      col: 2,
      byte: '0xE2',
    });
  });
});

describe('git conflict markers in the prompt', () => {
  const prompt = [
    'Explain {{topic}} in two sentences.',
    '<<<<<<< HEAD',
    'Keep it short.',
    '=======',
    'Keep it very short.',
    '>>>>>>> tweak-prompt',
    'Title',
    '=======',
    '',
  ].join('\n');

  it('git conflict markers in a prompt file are a validate/run error naming the file and line', async () => {
    const problems = await problemsWith('prompt.md', Buffer.from(prompt));
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      location: { file: 'prompt.md', line: 2, col: 1 },
      message: 'git conflict markers on lines 2, 4, 6: the prompt is in the middle of a merge',
    });
  });

  it('reports a marker left alone, but not a Markdown heading underlined with =======', () => {
    const problems = validateOne('/p.md', 'Title\n=======\nsay {{x}}\r\n>>>>>>> theirs\r\n', '/c.yaml', []);
    expect(problems.map((p) => [p.location.line, p.message])).toEqual([
      [4, 'git conflict markers on line 4: the prompt is in the middle of a merge'],
    ]);
    expect(validateOne('/p.md', '<<<<<<<< eight is not a marker\nsay {{x}}', '/c.yaml', [])).toEqual([]);
  });
});

describe('a very large YAML cases file', () => {
  it('above 20,000 YAML cases validate suggests JSONL', () => {
    const many = readRawCases('/x/cases.yaml', '- 0\n'.repeat(20_001));
    expect(many.problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        location: { file: '/x/cases.yaml', line: 1, col: 1 },
        message: '20,001 cases in YAML: a file this large is slow to read on every validate, eval and run',
      }),
    ]);
    expect(many.problems[0]?.hint).toContain('.jsonl');
    expect(manyYamlCasesWarning('/x/cases.yaml', 20_000)).toBeUndefined();
    expect(manyYamlCasesWarning('/x/cases.yaml', 200_000)?.message).toMatch(/^200,000 cases in YAML/);
  });
});
