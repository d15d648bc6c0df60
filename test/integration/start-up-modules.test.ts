/**
 * What a short command loads: `--help`, `show` and `runs` must not load Node's child_process
 * (commander would, for executable subcommands this CLI has none of) or crypto (only taking a
 * lock or computing a digest needs it). Each costs milliseconds of every start-up (BENCHMARKS.md, benchmark 6); this
 * keeps a later import from bringing them back unnoticed. Needs `npm run build` first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_MAIN, cleanEnv, REPO_ROOT, requireBuiltCli } from '../helpers/built-cli.js';
import { FIXTURE_RUN_ID, writeFixtureRun } from '../helpers/fixture-run.js';

const REPORTER = join(REPO_ROOT, 'test/fixtures/start-up/report-builtins.mjs');
let dir: string;

beforeAll(async () => {
  requireBuiltCli();
  dir = await mkdtemp(join(tmpdir(), 'ar-start-up-'));
  await writeFixtureRun(join(dir, 'runs'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function builtinsLoadedBy(args: string[]): Promise<string[]> {
  const out = join(dir, `builtins-${args[0]}.txt`);
  const result = await execa(process.execPath, ['--import', REPORTER, CLI_MAIN, ...args], {
    cwd: dir,
    env: cleanEnv({ AUTORESEARCH_RUNS_DIR: join(dir, 'runs'), AUTORESEARCH_TEST_BUILTINS_OUT: out }),
    reject: false,
  });
  expect(result.exitCode, result.stderr).toBe(0);
  return (await readFile(out, 'utf8')).split('\n').filter(Boolean);
}

describe('start-up of the built CLI', () => {
  it.each([[['--help']], [['show', FIXTURE_RUN_ID]], [['runs']]])(
    '%j loads neither child_process nor crypto',
    async (args) => {
      const loaded = await builtinsLoadedBy(args);
      expect(loaded).toContain('fs'); // the reporter works
      expect(loaded).not.toContain('child_process');
      expect(loaded).not.toContain('crypto');
    },
  );
});

/** The bundle files a file loads when it is imported: its static imports, followed through. */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const match of readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?["'](\.{1,2}\/[^"']+)["']/gm)) {
    staticImports(join(dirname(file), match[1]!), seen);
  }
  return seen;
}

describe('the bundle', () => {
  it('loads neither commander nor zod for the judge the runner starts (builtin-main.js)', () => {
    const chunks = join(dirname(CLI_MAIN), 'chunks');
    const judge = readdirSync(chunks).find((name) => name.startsWith('judge-'));
    const loaded = [
      ...staticImports(join(dirname(CLI_MAIN), 'builtin-main.js')),
      ...staticImports(join(chunks, judge!)),
    ];
    expect(loaded.length).toBeGreaterThan(1);
    const heavy = loaded.filter((file) =>
      /\/\/ node_modules\/(commander|zod)\//.test(readFileSync(file, 'utf8')),
    );
    expect(heavy).toEqual([]);
  });
});

describe('builtin-main.js', () => {
  it.each([
    [[]],
    [['judge', 'outputs']],
    [['judge', 'outputs', '--model', 'sim']],
    [['toString', 'x', '--rubric', 'y']],
  ])('refuses %j: only the runner’s own arguments, with a pointer to the real commands', async (args) => {
    const result = await execa(process.execPath, [join(dirname(CLI_MAIN), 'builtin-main.js'), ...args], {
      cwd: dir,
      env: cleanEnv(),
      reject: false,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('autoresearch judge');
  });
});
