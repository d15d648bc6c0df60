/**
 * Regression: `eval` exited 0 when every generation failed (server unreachable: 8 of 8 failed,
 * score 0) — CI went green on an outage. A generation that still failed after its retries
 * makes the score incomplete: exit 1, saying how many and why. Needs `npm run build` first.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { GRADER_SYSTEM_PROMPT } from '../../src/grader/grader-prompt.js';
import { JUDGE_SYSTEM_PROMPT } from '../../src/judge/judge-prompt.js';
import { createSimProvider } from '../../src/providers/sim/sim-provider.js';
import {
  type FakeLlmServer,
  type FakeRequest,
  respondWith,
  startFakeLlmServer,
} from '../helpers/fake-llm-server.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'dist/cli/main.js');
const FIXTURE = join(ROOT, 'test/fixtures/eval/support-reply');
const KEY = 'test-key-not-a-secret';
const simulated = respondWith(createSimProvider({ provider: 'sim' }));
const isGenerator = (req: FakeRequest) =>
  req.system !== JUDGE_SYSTEM_PROMPT && req.system !== GRADER_SYSTEM_PROMPT;

let work: string;
let server: FakeLlmServer | undefined;
beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
  work = mkdtempSync(join(tmpdir(), 'ar-eval-genfail-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /API_KEY|BASE_URL|AUTORESEARCH_|^DEBUG$|COLOR/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ANTHROPIC_API_KEY: KEY };
}

/** A copy of the fixture: the generator at `generatorUrl` without retries, judge and grader at the server. */
function experimentAt(name: string, generatorUrl: string, reviewUrl: string): string {
  const dir = join(work, name);
  cpSync(FIXTURE, dir, { recursive: true });
  const file = join(dir, 'experiment.yaml');
  const config = parse(readFileSync(file, 'utf8')) as { models: Record<string, Record<string, unknown>> };
  config.models = {
    generator: { ...config.models.generator, base_url: generatorUrl, max_retries: 0 },
    judge: { ...config.models.judge, base_url: reviewUrl },
    grader: { ...config.models.grader, base_url: reviewUrl },
  };
  writeFileSync(file, stringify(config));
  return dir;
}

async function evalCli(experiment: string, runsDir: string) {
  const result = await execa(process.execPath, [MAIN, 'eval', experiment, '--runs-dir', runsDir], {
    cwd: work,
    env: cleanEnv(),
    extendEnv: false,
    reject: false,
  });
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

describe('eval with generations that failed after their retries', () => {
  it('an unreachable generator server exits 1: every generation failed, the score is incomplete', async () => {
    server = await startFakeLlmServer({ respond: simulated });
    const gone = await startFakeLlmServer({ respond: simulated });
    const unreachable = gone.anthropicBaseUrl;
    await gone.close();
    const experiment = experimentAt('unreachable', unreachable, server.anthropicBaseUrl);
    const { code, stderr } = await evalCli(experiment, join(work, 'runs-unreachable'));
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /error: the score is incomplete: 6 of 6 generations failed after their retries \(.+\)/,
    );
  });

  it('one failed generation out of six is enough to exit 1, naming why', async () => {
    let generations = 0;
    server = await startFakeLlmServer({
      respond: (req) => {
        if (isGenerator(req) && ++generations === 1) return { fault: 'bad_request' };
        return simulated(req);
      },
    });
    const experiment = experimentAt('one-failed', server.anthropicBaseUrl, server.anthropicBaseUrl);
    const { code, stdout, stderr } = await evalCli(experiment, join(work, 'runs-one-failed'));
    expect(code).toBe(1);
    expect(stdout).toContain('Scores');
    expect(stderr).toMatch(/the score is incomplete: 1 of 6 generations failed after their retries \(.*400/);
  });
});
