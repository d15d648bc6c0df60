/**
 * The built CLI as a user runs it (`node dist/cli/main.js`, brought up to date by vitest's
 * global setup): --help, init, validate ok and bad, --json, --ping against a loopback fake.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'dist/cli/main.js');
const BROKEN = join(ROOT, 'test/fixtures/broken');
const SPEC_COMMANDS = [
  'init',
  'validate',
  'calibrate',
  'eval',
  'run',
  'resume',
  'stop',
  'runs',
  'show',
  'diff',
  'watch',
  'report',
  'apply',
  'judge',
  'grade',
];

/** The environment without any real API key or endpoint, so nothing can reach the network. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /API_KEY|BASE_URL|AUTORESEARCH_|^DEBUG$/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

async function cli(args: string[], cwd: string, env: Record<string, string> = cleanEnv()) {
  const result = await execa(process.execPath, [MAIN, ...args], {
    cwd,
    env,
    extendEnv: false,
    reject: false,
  });
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

let project: string;
beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
  project = mkdtempSync(join(tmpdir(), 'ar-cli-'));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('autoresearch --help', () => {
  it('lists every command of docs/design/commands-and-exit-codes.md', async () => {
    const { code, stdout } = await cli(['--help'], project);
    expect(code).toBe(0);
    for (const command of SPEC_COMMANDS) expect(stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });
});

describe('a reader that goes away', () => {
  it('is no failure: `… | true` exits 0 with nothing on stderr (no EPIPE crash)', async () => {
    // `true` reads nothing and exits at once, so the CLI's writes meet a closed pipe.
    const result = await execa(
      'bash',
      ['-c', `"${process.execPath}" "${MAIN}" --help | true; echo "exit \${PIPESTATUS[0]}"`],
      {
        env: cleanEnv(),
        extendEnv: false,
        reject: false,
      },
    );
    expect(result.stdout).toBe('exit 0');
    expect(result.stderr).toBe('');
  });
});

describe('autoresearch init and validate', () => {
  it('scaffolds an experiment that validates at once, with a plan', async () => {
    const init = await cli(['init', 'hello-world'], project);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('experiments/hello-world/experiment.yaml');
    for (const path of [
      'experiments/hello-world/experiment.yaml',
      'experiments/hello-world/prompt.md',
      'experiments/hello-world/cases.yaml',
      'experiments/hello-world/labels.yaml',
      'rubrics/hello-world.md',
    ]) {
      expect(existsSync(join(project, path)), path).toBe(true);
    }

    const validate = await cli(['validate', 'hello-world'], project);
    expect(validate.code).toBe(0);
    expect(validate.stderr).toBe('');
    expect(validate.stdout).toContain('Experiment  hello-world');
    expect(validate.stdout).toContain('12 train, 4 holdout');
    expect(validate.stdout).toMatch(/mutator +anthropic\/claude-sonnet-4-5 {2}\(defaulted from generator\)/);
    // Paired (init writes it): 16 cases per proposal and a retest of both sides, 16 cases each.
    expect(validate.stdout).toMatch(/Acceptance +paired: keep when the mean gain per train case is above 0/);
    // Sixteen cases: a gain of about 0.12 can be told from noise (with the three it had, 0.82).
    expect(validate.stdout).toContain('smallest detectable gain ≈ 0.12');
    expect(validate.stdout).toMatch(
      /Calls +per iteration: at most generator 48, mutator 1, judge 48, grader 3/,
    );
    expect(validate.stdout).toMatch(/Cost +~\$\d+\.\d+ per iteration, ~\$\d+\.\d+ for 20 iterations/);
    expect(validate.stdout).toContain('warning: ANTHROPIC_API_KEY is not set');
  });

  it('applies the overrides of run: --provider sim drops the key warning, --iterations the cost', async () => {
    const validate = await cli(
      ['validate', 'hello-world', '--provider', 'sim', '--iterations', '50'],
      project,
    );
    expect(validate.code).toBe(0);
    expect(validate.stderr).toContain('note: every model is simulated');
    expect(validate.stdout + validate.stderr).not.toContain('ANTHROPIC_API_KEY');
    expect(validate.stdout).not.toContain('Warnings');
    expect(validate.stdout).toMatch(/generator +sim\/claude-sonnet-4-5 +\[simulated\]/);
    expect(validate.stdout).toMatch(/~\$0\.00 for 50 iterations/);
    expect(validate.stdout).toMatch(/Budget +50 iterations/);

    const json = await cli(['validate', 'hello-world', '--provider', 'sim', '--json'], project);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout) as { problems: unknown[]; notes: string[] };
    expect(result.problems).toEqual([]);
    expect(result.notes.join('\n')).toContain('every model is simulated');

    const bad = await cli(['validate', 'hello-world', '--iterations', 'many'], project);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--iterations');
  });

  it("runs its baseline without warning against the scaffold's own settings", async () => {
    // The judge's noise, measured at the baseline, against the scaffold's min_effect: at the
    // default 0.01 the simulated judge's ±0.010 was above it, a warning on every first run.
    const run = await cli(['run', 'hello-world', '--provider', 'sim', '--iterations', '0'], project);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('cannot resolve');
    expect(run.stdout).not.toMatch(/^ {2}warnings /m);
    expect(run.stdout).toMatch(/^ {2}next +autoresearch show \S+$/m);
  });

  it('validates from a subfolder by name and prints --json', async () => {
    const { code, stdout } = await cli(
      ['validate', 'hello-world', '--json'],
      join(project, 'experiments', 'hello-world'),
    );
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { ok: boolean; plan: { cases: { holdout: string[] } } };
    expect(result.ok).toBe(true);
    expect(result.plan.cases.holdout).toHaveLength(4);
  });

  it('refuses to scaffold over an existing experiment, changing nothing', async () => {
    const file = join(project, 'experiments/hello-world/prompt.md');
    writeFileSync(file, 'My own prompt about {{topic}} for {{audience}}.\n');
    const again = await cli(['init', 'hello-world'], project);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exist');
    expect(readFileSync(file, 'utf8')).toBe('My own prompt about {{topic}} for {{audience}}.\n');
  });

  it('refuses a bad name and a missing promptfoo config, writing nothing', async () => {
    const before = readdirSync(join(project, 'experiments')).sort();
    const bad = await cli(['init', 'Bad_Name'], project);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a valid experiment name');
    const from = await cli(['init', 'imported', '--from', 'promptfooconfig.yaml'], project);
    expect(from.code).toBe(2);
    expect(from.stderr).toContain('promptfooconfig.yaml');
    expect(readdirSync(join(project, 'experiments')).sort()).toEqual(before);
  });
});

describe('autoresearch validate with the CLI providers', () => {
  it('the init template names both CLIs', async () => {
    expect((await cli(['init', 'cli-template'], project)).code).toBe(0);
    const yaml = readFileSync(join(project, 'experiments/cli-template/experiment.yaml'), 'utf8');
    expect(yaml).toContain('{ provider: claude-cli }');
    expect(yaml).toContain('{ provider: codex-cli }');
  });

  it('estimates claude-cli cost instead of "unknown" and warns that temperature and max_tokens are ignored', async () => {
    expect((await cli(['init', 'claude-check'], project)).code).toBe(0);
    const file = join(project, 'experiments/claude-check/experiment.yaml');
    const generator = 'generator: { provider: claude-cli, temperature: 0.7, max_tokens: 600 }';
    writeFileSync(file, readFileSync(file, 'utf8').replace(/generator: \{[^}]*\}/, generator));
    const { code, stdout } = await cli(['validate', 'claude-check'], project);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Cost +~\$\d+\.\d+ per iteration/);
    expect(stdout).not.toMatch(/Cost +unknown/);
    expect(stdout).toContain('estimated at claude-opus-5-5 prices');
    expect(stdout).toContain('the run counts the cost Claude Code reports');
    expect(stdout).toMatch(
      /models\.generator\.temperature +warning: `temperature` is ignored by provider `claude-cli`/,
    );
    expect(stdout).toMatch(
      /models\.generator\.max_tokens +warning: `max_tokens` is ignored by provider `claude-cli`/,
    );
  });
});

describe('autoresearch validate on a broken experiment', () => {
  it('names the file, line 7 and the typo’d key, exits 2', async () => {
    const { code, stdout, stderr } = await cli(['validate', join(BROKEN, 'unknown-top-level-key')], project);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      'unknown-top-level-key/experiment.yaml:7:1  descripton  error: unknown key `descripton`',
    );
    expect(stderr).toContain('did you mean `description`?');
  });

  it('reports many problems at once', async () => {
    const { code, stderr } = await cli(['validate', join(BROKEN, 'many-problems')], project);
    expect(code).toBe(2);
    expect(stderr).toMatch(/12 errors, 1 warning; nothing was written\./);
  });

  it('says an unknown experiment is not found, with the known ones', async () => {
    const { code, stderr } = await cli(['validate', 'hello-wrld'], project);
    expect(code).toBe(2);
    expect(stderr).toContain('experiment `hello-wrld` not found');
    expect(stderr).toContain('hello-world');
  });
});

describe('autoresearch validate --ping', () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await startFakeLlmServer({ requireKey: 'test-key', respond: () => 'OK' });
    expect((await cli(['init', 'ping-check'], project)).code).toBe(0);
    const file = join(project, 'experiments/ping-check/experiment.yaml');
    const generator = `generator: { provider: openai, model: gpt-4o-mini, base_url: "${server.openaiBaseUrl}", api_key_env: FAKE_KEY }`;
    writeFileSync(file, readFileSync(file, 'utf8').replace(/generator: \{[^}]*\}/, generator));
  });
  afterAll(async () => server.close());

  it('refuses with exit 2 when a key is missing, before any call', async () => {
    const { code, stderr } = await cli(['validate', 'ping-check', '--ping'], project);
    expect(code).toBe(2);
    expect(stderr).toContain('FAKE_KEY is not set');
    expect(server.log).toHaveLength(0);
  });

  it('pings each distinct model once and prints the latency', async () => {
    const { code, stdout } = await cli(
      ['validate', 'ping-check', '--ping'],
      project,
      cleanEnv({ FAKE_KEY: 'test-key' }),
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/Ping +generator, mutator, judge, grader {2}ok \d+ ms/);
    expect(server.log).toHaveLength(1);
  });

  it('exits 1 and prints the failure when the endpoint rejects the key', async () => {
    const { code, stdout } = await cli(
      ['validate', 'ping-check', '--ping'],
      project,
      cleanEnv({ FAKE_KEY: 'wrong' }),
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/generator, mutator, judge, grader {2}failed: .+/);
  });
});
