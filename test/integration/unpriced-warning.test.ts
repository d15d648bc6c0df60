/**
 * A model with no price (none in the built-in table, no `price:`) is said once when the run
 * starts and again when it is resumed: its calls are recorded as unpriced and `budget.usd` cannot
 * count them. The built CLI runs the release-note experiment against the fake LLM server with
 * its generator on a model the table does not know; its spend stays $0, never a guessed price.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { createSimProvider } from '../../src/providers/sim/sim-provider.js';
import { readJournal } from '../../src/run/journal.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { type FakeLlmServer, respondWith, startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { createTempRepo, readTreeBytes, type TempRepo } from '../helpers/temp-repo.js';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'kill', 'release-note');
const KEY = 'sk-ant-unpriced-test-0123456789';
const WARNING =
  'warning: no price for anthropic/claude-house-model (generator): its calls are recorded as unpriced and do not count toward budget.usd; set models.generator.price to count them';

let server: FakeLlmServer;
let repo: TempRepo | undefined;

beforeAll(async () => {
  requireBuiltCli();
  server = await startFakeLlmServer({
    respond: respondWith(createSimProvider({ provider: 'sim' })),
    requireKey: KEY,
  });
});

afterAll(async () => {
  await server?.close();
  await repo?.cleanup();
});

describe('a model without a price', () => {
  it('is named once at the start and once at a resume, and its calls cost nothing rather than a guess', async () => {
    const files: Record<string, string> = {};
    for (const [file, bytes] of await readTreeBytes(FIXTURE))
      files[`experiments/release-note/${file}`] = bytes.toString('utf8');
    const config = parse(files['experiments/release-note/experiment.yaml'] as string);
    config.models.generator.model = 'claude-house-model';
    config.judging = { isolation: 'process' };
    files['experiments/release-note/experiment.yaml'] = stringify(config);
    repo = await createTempRepo({ files });
    const env = cleanEnv({
      ...repo.env,
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    });

    const run = await runBuiltCli(['run', 'release-note', '--iterations', '1'], { cwd: repo.dir, env });
    expect(run.code, run.stderr).toBe(0);
    // Unwrapped: the terminal note wraps a long line under its label.
    const said = (stderr: string) =>
      stderr
        .replace(/\n {9}/g, ' ')
        .split('\n')
        .filter((l) => l.startsWith('warning: no price'));
    expect(said(run.stderr)).toEqual([WARNING]);

    const [id] = runFolders(path.join(repo.dir, 'runs'));
    const { events } = await readJournal(path.join(repo.dir, 'runs', id as string));
    const generatorSpend = events.filter((e) => e.type === 'spend' && e.role === 'generator');
    expect(generatorSpend.length).toBeGreaterThan(0);
    for (const spend of generatorSpend) expect(spend).toMatchObject({ usd: 0 });

    const resumed = await runBuiltCli(['resume', id as string, '--iterations', '+1'], { cwd: repo.dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(said(resumed.stderr)).toEqual([WARNING]);
  }, 180_000);
});
