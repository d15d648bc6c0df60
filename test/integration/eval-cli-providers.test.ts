/**
 * `autoresearch eval` with the CLI providers, through the built CLI: stub `claude` / `codex`
 * executables (test/fixtures/bin) stand in for the real ones, the judge and grader are
 * simulated. What a CLI says reaches the run: Codex ignoring a setting is a warning in the
 * journal, once per run; Claude Code reporting a rejected key (api_error_status 401) stops
 * the run as an authentication failure without retries. Needs `npm run build` first.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { RunEvent } from '../../src/run/events.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'dist/cli/main.js');
const FIXTURE = join(ROOT, 'test/fixtures/eval/support-reply');
const BIN = join(ROOT, 'test/fixtures/bin');

let work: string;
beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
  work = mkdtempSync(join(tmpdir(), 'ar-eval-cli-'));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /API_KEY|BASE_URL|AUTORESEARCH_|^DEBUG$|COLOR|^CLAUDE_CODE_/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

/** A copy of the fixture whose generator is a CLI provider and whose judge and grader are simulated. */
function withGenerator(name: string, generator: Record<string, unknown>): string {
  const dir = join(work, name);
  cpSync(FIXTURE, dir, { recursive: true });
  const file = join(dir, 'experiment.yaml');
  const config = parse(readFileSync(file, 'utf8')) as { models: Record<string, unknown> };
  config.models = {
    generator,
    judge: { provider: 'sim', model: 'sim', temperature: 0 },
    grader: { provider: 'sim', model: 'sim' },
  };
  writeFileSync(file, stringify(config));
  return dir;
}

async function evaluate(experiment: string, env: Record<string, string>) {
  const runsDir = join(experiment, 'runs');
  const result = await execa(process.execPath, [MAIN, 'eval', experiment, '--runs-dir', runsDir], {
    cwd: work,
    env: cleanEnv(env),
    extendEnv: false,
    reject: false,
  });
  const [id] = readdirSync(runsDir).filter((n) => !n.startsWith('.'));
  const events = readFileSync(join(runsDir, id ?? '', 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => RunEvent.parse(JSON.parse(line)));
  return { code: result.exitCode, stderr: result.stderr, events };
}

function loggedCalls(log: string): { argv: string[] }[] {
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { argv: string[] });
}

describe('eval with the CLI providers', () => {
  it('journals Codex ignoring a setting as one warning for the whole run', async () => {
    const log = join(work, 'codex-argv.jsonl');
    const experiment = withGenerator('codex', {
      provider: 'codex-cli',
      binary: join(BIN, 'fake-codex.mjs'),
      params: { not_a_key: 1 },
    });
    const { code, stderr, events } = await evaluate(experiment, {
      FAKE_CODEX_MODE: 'ignored-config',
      FAKE_CLI_ARGV_LOG: log,
    });
    expect(stderr).not.toMatch(/internal error/i);
    expect(code).toBe(0);
    expect(loggedCalls(log).length).toBeGreaterThan(1);
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Codex CLI \(default\): Codex is ignoring 1 unrecognized configuration/);
    expect(warnings[0]).toContain('`not_a_key`');
    expect(stderr.match(/warning: Codex CLI/g)).toHaveLength(1);
  });

  it('stops on a key Claude Code reports as rejected (401), without retrying it', async () => {
    const log = join(work, 'claude-argv.jsonl');
    const experiment = withGenerator('claude', {
      provider: 'claude-cli',
      binary: join(BIN, 'fake-claude.mjs'),
      max_retries: 3,
    });
    const { code, stderr, events } = await evaluate(experiment, {
      FAKE_CLAUDE_MODE: 'api-401',
      FAKE_CLI_ARGV_LOG: log,
    });
    expect(code).not.toBe(0);
    expect(stderr).toContain('Failed to authenticate');
    // Claude Code keeps its own login: the hint names it, not "the API key".
    expect(stderr).toContain('claude auth login');
    expect(stderr).not.toContain('holds a valid key');
    const cases = readFileSync(join(experiment, 'cases.yaml'), 'utf8').match(/^- /gm)?.length ?? 0;
    // Each case's generation is tried at most once: auth failures are never retried.
    expect(loggedCalls(log).length).toBeLessThanOrEqual(Math.max(cases, 1));
    expect(events.some((e) => e.type === 'run_stopped' && e.reason === 'auth')).toBe(true);
  });
});
