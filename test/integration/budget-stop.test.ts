/**
 * budget.usd before each call (docs/design/cost-engine.md): the built CLI runs the release-note
 * experiment against the fake LLM server with a generator so dear that the baseline's worst case
 * is several times the budget. The run stops before the call that could cross it — spent at most
 * the budget, reason `usd`, the open baseline journaled as interrupted — and `resume` with a
 * raised budget finishes it from the same journal.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { createSimProvider } from '../../src/providers/sim/sim-provider.js';
import type { RunEvent } from '../../src/run/events.js';
import { readJournal } from '../../src/run/journal.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { type FakeLlmServer, respondWith, startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { createTempRepo, readTreeBytes, type TempRepo } from '../helpers/temp-repo.js';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'kill', 'release-note');
const KEY = 'sk-ant-budget-stop-0123456789';
const BUDGET = 1;
// $1,000 per Mtok: a generator call's worst case (400 output tokens and its input) is ~$0.5.
const DEAR = { input_per_mtok: 1000, output_per_mtok: 1000 };

let server: FakeLlmServer;
let repo: TempRepo;

beforeAll(async () => {
  requireBuiltCli();
  server = await startFakeLlmServer({
    respond: respondWith(createSimProvider({ provider: 'sim' })),
    requireKey: KEY,
  });
  const files: Record<string, string> = {};
  for (const [file, bytes] of await readTreeBytes(FIXTURE))
    files[`experiments/release-note/${file}`] = bytes.toString('utf8');
  const config = parse(files['experiments/release-note/experiment.yaml'] as string);
  config.judging = { isolation: 'process', anchors: 0 };
  config.models.generator.price = DEAR;
  config.budget.usd = BUDGET;
  files['experiments/release-note/experiment.yaml'] = stringify(config);
  repo = await createTempRepo({ files });
});

afterAll(async () => {
  await server?.close();
  await repo?.cleanup();
});

const ofType = <T extends RunEvent['type']>(events: readonly RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe('budget.usd against the fake server', () => {
  it('stops before the call that could cross the budget, baseline included, and resumes with more', async () => {
    const env = cleanEnv({
      ...repo.env,
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    });
    const first = await runBuiltCli(['run', 'release-note', '--iterations', '1'], { cwd: repo.dir, env });
    expect(first.code, first.stderr).toBe(0);
    const runs = path.join(repo.dir, 'runs');
    const [id] = runFolders(runs);
    const runDir = path.join(runs, id as string);

    const stopped = (await readJournal(runDir)).events;
    const spent = ofType(stopped, 'spend').reduce((sum, e) => sum + e.usd, 0);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(BUDGET);
    const [stop] = ofType(stopped, 'run_stopped');
    expect(stop?.reason).toBe('usd');
    expect(stop?.message).toMatch(/could cost up to \$0\.\d+ and was not started/);
    // The baseline never finished: journaled as interrupted, no incumbent, nothing else begun.
    const finished = ofType(stopped, 'iteration_finished');
    expect(finished.map((e) => [e.iteration, e.status])).toEqual([[0, 'interrupted']]);
    // It says so: the summary names the stop, what was spent and how to go on.
    expect(first.stdout).toMatch(
      /stopped \(usd\): spent \$0\.\d+ of the \$1\.00 budget; the next call could cost up to \$0\.\d+ and was not started — `autoresearch resume --usd \+X` continues/,
    );

    const resumed = await runBuiltCli(['resume', id as string, '--usd', '1000'], { cwd: repo.dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const events = (await readJournal(runDir)).events;
    const statuses = ofType(events, 'iteration_finished').map((e) => e.status);
    expect(statuses[0]).toBe('interrupted');
    expect(statuses).toContain('baseline');
    expect(statuses.length).toBeGreaterThanOrEqual(3);
    expect(ofType(events, 'run_stopped').at(-1)?.reason).toBe('iterations');
  });
});
