/**
 * The broken-experiment corpus: every fixture under test/fixtures/broken/ holds one
 * mistake (many-problems/ holds several). `validate` must exit 2, name the file and the exact
 * line of each mistake, and write nothing — not in the fixture, not in the working folder.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pc from 'picocolors';
import { afterAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/commands/validate.js';
import type { Terminal } from '../../src/ui/terminal.js';

const BROKEN = resolve(import.meta.dirname, '../fixtures/broken');

/** fixture → [file, line, a fragment the error line must hold]. */
const EXPECTED: Record<string, [string, number, string]> = {
  'anthropic-key-and-error': ['experiment.yaml', 11, 'concurrency  error: expected a number, got "lots"'],
  'anthropic-without-model': [
    'experiment.yaml',
    9,
    'models.mutator  error: provider `anthropic` needs `model`',
  ],
  'bad-case-id': ['cases.yaml', 3, '[1].id  error: "second case!"'],
  'bad-name': ['experiment.yaml', 2, 'name  error: "Cold_Email"'],
  'bad-per-case-check': ['cases.yaml', 8, '[2].checks[0].value  error: contains-any needs a list'],
  'bad-provider': ['experiment.yaml', 9, 'models.judge.provider  error: "antropic" is not one of'],
  'bad-regex': ['experiment.yaml', 11, 'checks[1].value  error: Invalid regular expression'],
  'bad-split-label': ['cases.yaml', 7, '[2].split  error: "validation" is not one of: train, holdout, test'],
  'case-id-dot-dot': ['cases.yaml', 3, '[1].id  error: `.` and `..` name folders'],
  'case-id-too-long': ['cases.yaml', 3, '[1].id  error: at most 200 characters'],
  'cases-bad-extension': ['experiment.yaml', 5, 'cases  error: cases file must end in'],
  'cases-not-a-list': ['cases.yaml', 1, 'error: a cases file must be a YAML list'],
  'command-without-command': [
    'experiment.yaml',
    8,
    'models.generator  error: provider `command` needs `command`',
  ],
  'criteria-section-empty': ['rubric.md', 3, 'error: the Criteria section lists no criteria'],
  'csv-expectations-column': ['cases.csv', 1, 'error: a CSV cases file cannot hold `expectations`'],
  'csv-unterminated-quote': ['cases.csv', 3, 'error: unterminated quoted field'],
  'csv-wrong-field-count': ['cases.csv', 3, 'error: row has 3 field(s), the header has 2'],
  'duplicate-case-ids': ['cases.yaml', 5, '[2].id  error: duplicate case id `first`'],
  'duplicate-criterion': ['rubric.md', 13, 'error: duplicate criterion key `clarity`'],
  'duplicate-key': ['experiment.yaml', 5, 'description  error: duplicate key `description`'],
  'empty-case-list': ['cases.yaml', 1, 'error: no cases'],
  'empty-prompt': ['prompt.md', 1, 'error: the prompt file is empty'],
  'holdout-labels-no-train': ['cases.yaml', 2, '[0].split  error: every case is labelled `split: holdout`'],
  'holdout-share-no-train': ['experiment.yaml', 12, 'search.holdout  error: must be <= 0.9'],
  'test-share-over-cap': [
    'experiment.yaml',
    13,
    'search.test  error: search.holdout (0.5) + search.test (0.5) is 1, above 0.9',
  ],
  'test-share-no-train': [
    'experiment.yaml',
    13,
    'search.test  error: a test share of 0.9 draws 3 of 3 cases, which leaves no train case',
  ],
  'invalid-json-schema': ['experiment.yaml', 12, 'checks[1].value  error: invalid JSON schema'],
  'jsonl-bad-line': ['cases.jsonl', 2, 'error: not valid JSON'],
  'jsonl-wrong-type': ['cases.jsonl', 3, '[1].vars  error: expected a mapping, got a list'],
  'judge-command-not-a-list': ['experiment.yaml', 9, 'models.judge.command  error: expected a list'],
  'missing-cases-file': ['experiment.yaml', 5, 'cases  error: cases file "case.yaml" does not exist'],
  'missing-placeholder-value': ['cases.yaml', 4, '[1].vars  error: case `second` has no value for {{topic}}'],
  'missing-prompt-file': ['experiment.yaml', 4, 'prompt  error: prompt file "promt.md" does not exist'],
  'missing-required-key': ['experiment.yaml', 2, 'cases  error: missing required key `cases`'],
  'missing-rubric-file': [
    'experiment.yaml',
    6,
    'rubric  error: rubric file "../rubrics/missing.md" does not exist',
  ],
  'negative-check-weight': ['experiment.yaml', 10, 'checks[0].weight  error: weights must be >= 0'],
  'negative-criterion-weight': ['rubric.md', 14, 'error: weight must be >= 0, got -2'],
  'openai-without-model': ['experiment.yaml', 8, 'models.generator  error: provider `openai` needs `model`'],
  'rubric-without-criteria': ['rubric.md', 1, 'error: the rubric has no "Criteria" section'],
  'paired-one-train-case': [
    'experiment.yaml',
    12,
    'search.acceptance  error: paired acceptance compares candidate and incumbent case by case and needs at least 2 train cases',
  ],
  'prompt-conflict-markers': [
    'prompt.md',
    2,
    'error: git conflict markers on lines 2, 4, 6: the prompt is in the middle of a merge',
  ],
  'prompt-not-utf8': ['prompt.md', 2, 'error: not valid UTF-8: byte 0xE9 does not decode'],
  'samples-on-generator': [
    'experiment.yaml',
    8,
    'models.generator.samples  error: `samples` applies only to the judge',
  ],
  'unbalanced-keep-marker': ['prompt.md', 3, 'error: unbalanced keep marker'],
  'unknown-case-key': [
    'cases.yaml',
    5,
    '[1].expectation  error: unknown key `expectation`  (did you mean `expectations`?)',
  ],
  'unknown-check-type': [
    'experiment.yaml',
    11,
    'checks[1].type  error: unknown check type "not-icontains-nay"',
  ],
  'unknown-nested-key': [
    'experiment.yaml',
    8,
    'models.generator.temprature  error: unknown key `temprature`  (did you mean `temperature`?)',
  ],
  'unknown-top-level-key': [
    'experiment.yaml',
    7,
    'descripton  error: unknown key `descripton`  (did you mean `description`?)',
  ],
  'weights-all-zero': ['experiment.yaml', 12, 'scoring.weights  error: every scoring weight is 0'],
  'wrong-type': ['experiment.yaml', 11, 'concurrency  error: expected a number, got "lots"'],
  'yaml-syntax-error': ['experiment.yaml', 9, 'error: YAML syntax error'],
};

/** The many-problems fixture: every one of these must be reported in the same run. */
const MANY: [string, number, string][] = [
  ['experiment.yaml', 2, 'name  error: "Many Problems"'],
  ['experiment.yaml', 3, 'descripton  error: unknown key'],
  ['experiment.yaml', 8, 'models.generator.temprature  error: unknown key'],
  ['experiment.yaml', 9, 'models.judge.provider  error:'],
  ['experiment.yaml', 11, 'checks[0].value  error: Invalid regular expression'],
  ['experiment.yaml', 12, 'checks[1].type  error: unknown check type "word-cuont"'],
  ['experiment.yaml', 13, 'checks[2].weight  error: weights must be >= 0'],
  ['experiment.yaml', 15, 'search.holdout  error: must be <= 0.9'],
  ['cases.yaml', 3, '[1].id  error: "bad id!"'],
  ['cases.yaml', 6, '[2].vars  error: case `third` has no value for {{topic}}'],
  ['rubric.md', 14, 'error: weight must be a number, got "lots"'],
  ['prompt.md', 1, 'error: unbalanced keep marker'],
];

function captureTerminal(): Terminal & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    colors: pc.createColors(false),
    isTTY: false,
    errIsTTY: false,
    status: () => undefined,
    rewind: () => undefined,
    width: 100,
  };
}

/** Every path under `dir` with its size and modification time. */
function snapshot(dir: string): string[] {
  const entries: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const info = statSync(path);
      entries.push(`${path} ${info.size} ${info.mtimeMs}`);
      if (info.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return entries;
}

const cwd = mkdtempSync(join(tmpdir(), 'ar-validate-broken-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function validate(fixture: string, json = false, provider?: string) {
  const term = captureTerminal();
  const before = snapshot(BROKEN);
  const options = { json, ...(provider === undefined ? {} : { provider }) };
  const code = await runValidate(join(BROKEN, fixture), options, { cwd, env: {}, term });
  expect(snapshot(BROKEN)).toEqual(before);
  expect(readdirSync(cwd)).toEqual([]);
  return { code, stdout: term.stdout.join('\n'), stderr: term.stderr.join('\n') };
}

describe('validate on the broken-experiment corpus', () => {
  const fixtures = readdirSync(BROKEN).filter((name) => statSync(join(BROKEN, name)).isDirectory());

  it('holds at least 25 single-problem fixtures, each listed here, plus many-problems', () => {
    const single = fixtures.filter((f) => f !== 'many-problems');
    expect(single.length).toBeGreaterThanOrEqual(25);
    expect(single.sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(fixtures).toContain('many-problems');
  });

  it.each(Object.entries(EXPECTED))(
    '%s: exit 2, names the file and line, writes nothing',
    async (fixture, [file, line, fragment]) => {
      const { code, stdout, stderr } = await validate(fixture);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      const errorLines = stderr.split('\n').filter((l) => l.includes(' error: ') || l.includes('  error: '));
      expect(errorLines).toHaveLength(1);
      expect(errorLines[0]).toContain(`${join(BROKEN, fixture, file)}:${line}:`);
      expect(errorLines[0]).toContain(fragment);
      expect(stderr).toMatch(/1 error(, \d+ warnings?)?; nothing was written\.$/);
    },
  );

  it('many-problems: reports every problem in one run, in every file', async () => {
    const { code, stderr } = await validate('many-problems');
    expect(code).toBe(2);
    const lines = stderr.split('\n');
    for (const [file, line, fragment] of MANY) {
      const where = `${join(BROKEN, 'many-problems', file)}:${line}:`;
      expect(
        lines.find((l) => l.startsWith(where) && l.includes(fragment)),
        `${file}:${line} ${fragment}`,
      ).toBeDefined();
    }
    expect(lines.filter((l) => l.includes('  error: ')).length).toBe(MANY.length);
  });

  it('--json prints every problem with file, line, column and key path', async () => {
    const { code, stdout, stderr } = await validate('unknown-top-level-key', true);
    expect(code).toBe(2);
    expect(stderr).toBe('');
    const result = JSON.parse(stdout) as { ok: boolean; plan: unknown; problems: unknown[] };
    expect(result.ok).toBe(false);
    expect(result.plan).toBeNull();
    expect(result.problems).toEqual([
      {
        severity: 'error',
        location: { file: join(BROKEN, 'unknown-top-level-key', 'experiment.yaml'), line: 7, col: 1 },
        keyPath: 'descripton',
        message: 'unknown key `descripton`',
        hint: 'did you mean `description`?',
      },
    ]);
  });

  it("a key warning follows --provider: none under sim, the swapped provider's key otherwise", async () => {
    // The fixture's models are anthropic's (the judge and mutator default from a generator entry
    // that names anthropic); its error is elsewhere, so the overrides are never applied.
    const plain = await validate('anthropic-key-and-error');
    expect(plain.stderr).toContain('ANTHROPIC_API_KEY is not set');
    const sim = await validate('anthropic-key-and-error', false, 'sim');
    expect(sim.code).toBe(2);
    expect(sim.stderr).toContain('concurrency  error: expected a number, got "lots"');
    expect(sim.stderr).not.toContain('is not set');
    expect(sim.stderr).toMatch(/1 error; nothing was written\.$/);
    const openai = await validate('anthropic-key-and-error', false, 'openai');
    expect(openai.stderr).toContain('OPENAI_API_KEY is not set');
    expect(openai.stderr).not.toContain('ANTHROPIC_API_KEY');
  });
});
