/**
 * Keeps the benchmark scripts working: each runs in its `--smoke` mode (a tiny version, seconds)
 * against the built CLI and writes its section to a scratch BENCHMARKS.md. The figures mean
 * nothing here; the real ones come from `npm run bench`. Needs `npm run build` first.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
// The scripts measure dist/, or the private build AUTORESEARCH_BENCH_DIST names.
const MAIN = join(process.env['AUTORESEARCH_BENCH_DIST'] ?? join(ROOT, 'dist'), 'cli/main.js');

let scratch: string;
beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
  scratch = mkdtempSync(join(tmpdir(), 'ar-bench-smoke-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function smoke(script: string, out: string) {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/API_KEY|BASE_URL|^AUTORESEARCH_TEST_/.test(key)) env[key] = value;
  }
  return execa(process.execPath, [join(ROOT, 'bench', script), '--smoke', '--out', out], {
    cwd: ROOT,
    env,
    extendEnv: false,
    reject: false,
  });
}

function section(file: string, key: string): string {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(`<!-- bench:${key}:start -->`);
  const end = text.indexOf(`<!-- bench:${key}:end -->`);
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return text.slice(start, end);
}

describe('benchmark scripts in --smoke mode', () => {
  const cases: [string, string, RegExp][] = [
    ['concurrency.mjs', 'concurrency', /\| 4 \| .* ms \|/],
    ['overhead.mjs', 'overhead', /runner time per case-evaluation/],
    ['resume-cost.mjs', 'resume', /judging:1 .*\| 0 \| yes \|/],
    ['scale.mjs', 'scale', /read \+ fold the journal/],
    ['startup.mjs', 'startup', /`autoresearch --help`/],
    ['acceptance.mjs', 'acceptance', /\| identical truth, rubric \| 12 \+ 4 \| .*% ±/],
    [
      'search.mjs',
      'search',
      /\| inbox-replies \(two kinds: stuck\) \| \d+ \/ \d+ \| \d+ · \d+\.\d \/ \d+\.\d \| /,
    ],
    ['cost.mjs', 'cost', /\| batch\+caching \| \$\d+\.\d{4} \|[\s\S]*0 batches created again/],
    [
      'agent.mjs',
      'agent',
      /\| runner time per agent case \(10 files, 0\.1 MB fixture, agent returns at once\) \| [\d.]+ ms \| <= 300 ms: (met|MISSED) \|/,
    ],
  ];
  // The time limit is search.mjs's: six whole loops (three landscapes, two strategies) even when smoking.
  it.each(cases)(
    '%s runs, prints its table and writes its section',
    async (script, key, figure) => {
      const out = join(scratch, `${key}.md`);
      const result = await smoke(script, out);
      expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stdout).toContain('(smoke)');
      const body = section(out, key);
      expect(body).toMatch(figure);
      expect(body).toContain(`Reproduce: \`node bench/${script} --smoke\``);
      // The other sections are left for their own scripts.
      expect(section(out, key === 'startup' ? 'scale' : 'startup')).toContain('Not measured yet');
    },
    240_000,
  );

  it('writes into an existing file in place: what lies outside its own section is kept', async () => {
    const out = join(scratch, 'existing.md');
    writeFileSync(
      out,
      '# Benchmarks\n\nA note typed by hand.\n\n## 6. Start-up\n\n<!-- bench:startup:start -->\nold figures\n<!-- bench:startup:end -->\n',
    );
    for (let run = 0; run < 2; run++) {
      const result = await smoke('acceptance.mjs', out);
      expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
    }
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('A note typed by hand.');
    expect(section(out, 'startup')).toContain('old figures');
    expect(text.match(/<!-- bench:acceptance:start -->/g)).toHaveLength(1);
    expect(text.indexOf('## 7. Acceptance')).toBeGreaterThan(text.indexOf('<!-- bench:startup:end -->'));
  });

  it('vs-promptfoo.mjs compares with promptfoo when it is installed, and says it skipped otherwise', async () => {
    const out = join(scratch, 'vs-promptfoo.md');
    const result = await smoke('vs-promptfoo.mjs', out);
    expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
    const installed = existsSync(join(ROOT, 'bench/.peers/node_modules/promptfoo/package.json'));
    if (installed) {
      expect(section(out, 'vs-promptfoo')).toMatch(/0 disagreements; both tools sent identical requests/);
    } else {
      expect(result.stdout).toContain('skipped: promptfoo is not installed');
      expect(existsSync(out)).toBe(false);
    }
  });
});
