/**
 * The overnight cost engine end to end (docs/design/cost-engine.md): the built CLI runs the
 * release-note experiment against the fake LLM server, whose usage follows Anthropic's prompt-cache
 * rules (test/helpers/fake-prompt-cache.js), with the built-in price table.
 *
 * - The built-in judge's stable prefix (instructions, rubric, keys) is marked `cache_control`:
 *   the first judge call writes it, the later ones read it, and the ledger per role in the
 *   journal, `show --json` and `runs --json` prices those tokens at claude-sonnet-4-5's rates
 *   ($3 in, $3.75 cache write, $0.30 cache read, $15 out per Mtok), checked by hand here.
 * - budget.usd set under the run's cost: one `spend_alert` at 50% and one at 80%, printed.
 * - `on_finish` gets the run summary JSON on stdin; a failing one is a warning, exit code 0.
 */
import { readFile } from 'node:fs/promises';
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
const KEY = 'sk-ant-cost-engine-0123456789';
const MARK = { type: 'ephemeral' };
const BUDGET = 0.053;

/** Guidance that makes the judge's prefix longer than claude-sonnet-4-5's 1,024-token minimum. */
const GUIDANCE = Array.from(
  { length: 12 },
  (_, i) =>
    `Guidance ${i + 1}: read the note as a customer who skims; reward the sentence that names the change and what it does for them, and do not reward length, polish or confident tone on their own.`,
).join(' ');

let server: FakeLlmServer;
const repos: TempRepo[] = [];

beforeAll(async () => {
  requireBuiltCli();
  server = await startFakeLlmServer({
    respond: respondWith(createSimProvider({ provider: 'sim' })),
    requireKey: KEY,
  });
});

afterAll(async () => {
  await server?.close();
  await Promise.all(repos.map((repo) => repo.cleanup()));
});

async function runProject(edit: (config: Record<string, unknown>) => void, notifier: string) {
  const files: Record<string, string> = {};
  for (const [file, bytes] of await readTreeBytes(FIXTURE))
    files[`experiments/release-note/${file}`] = bytes.toString('utf8');
  const rubric = files['experiments/release-note/rubric.md'] as string;
  files['experiments/release-note/rubric.md'] = rubric.replace(
    'What it measures: can a customer',
    `${GUIDANCE}\n\nWhat it measures: can a customer`,
  );
  files['experiments/release-note/notify.mjs'] = notifier;
  const config = parse(files['experiments/release-note/experiment.yaml'] as string);
  config.judging = { isolation: 'process', anchors: 0 };
  edit(config);
  files['experiments/release-note/experiment.yaml'] = stringify(config);
  const repo = await createTempRepo({ files });
  repos.push(repo);
  const env = cleanEnv({ ...repo.env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.anthropicBaseUrl });
  const from = server.log.length;
  const result = await runBuiltCli(['run', 'release-note', '--iterations', '2'], { cwd: repo.dir, env });
  const runs = path.join(repo.dir, 'runs');
  const [id] = runFolders(runs);
  const runDir = path.join(runs, id as string);
  const { events } = await readJournal(runDir);
  return { repo, env, id: id as string, runDir, events, result, requests: server.log.slice(from) };
}

const ofType = <T extends RunEvent['type']>(events: readonly RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

/** Writes its stdin to summary.json beside it. */
const RECORDER = `import { writeFileSync } from 'node:fs';
let text = '';
process.stdin.on('data', (d) => { text += d; });
process.stdin.on('end', () => writeFileSync(new URL('./summary.json', import.meta.url), text));
`;

describe('the cost engine against the fake server', () => {
  it('caches the judge prefix, prices the ledger, alerts at 50% and 80% and notifies at the end', async () => {
    // The baseline costs about $0.043 on the fake server: the budget is crossed at 50% and 80%
    // while it runs, leaves room for its last calls' worst cases (judge and grader held to 200 and
    // 300 output tokens), and then stops the run.
    const run = await runProject((config) => {
      (config['budget'] as Record<string, unknown>)['usd'] = BUDGET;
      const models = config['models'] as Record<string, Record<string, unknown>>;
      (models['judge'] as Record<string, unknown>)['max_tokens'] = 200;
      (models['grader'] as Record<string, unknown>)['max_tokens'] = 300;
      config['on_finish'] = [process.execPath, './notify.mjs'];
    }, RECORDER);
    expect(run.result.code, run.result.stderr).toBe(0);

    // The judge's requests carry the marks: instructions, then rubric and keys.
    const judged = run.requests.filter((entry) => JSON.stringify(entry.body).includes('<rubric>'));
    expect(judged.length).toBeGreaterThan(2);
    for (const entry of judged) {
      const body = entry.body as { system: { cache_control?: unknown }[]; messages: { content: unknown }[] };
      expect(body.system[0]?.cache_control).toEqual(MARK);
      const [head] = (body.messages[0]?.content ?? []) as { cache_control?: unknown }[];
      expect(head?.cache_control).toEqual(MARK);
    }

    // The ledger per role: written once, read after, priced at the built-in rates.
    const judge = ofType(run.events, 'spend').filter((e) => e.role === 'judge');
    const sum = (key: 'inputTokens' | 'cacheWriteTokens' | 'cacheReadTokens' | 'outputTokens') =>
      judge.reduce((n, e) => n + (e[key] ?? 0), 0);
    const tokens = {
      input: sum('inputTokens'),
      write: sum('cacheWriteTokens'),
      read: sum('cacheReadTokens'),
      output: sum('outputTokens'),
    };
    expect(tokens.write).toBeGreaterThan(1024);
    expect(tokens.read).toBeGreaterThan(tokens.write);
    const usd = judge.reduce((n, e) => n + e.usd, 0);
    const byHand =
      ((tokens.input - tokens.write - tokens.read) * 3 +
        tokens.write * 3.75 +
        tokens.read * 0.3 +
        tokens.output * 15) /
      1e6;
    expect(usd).toBeCloseTo(byHand, 12);
    // Cheaper than the same tokens uncached: the reads cost a tenth.
    expect(usd).toBeLessThan((tokens.input * 3 + tokens.output * 15) / 1e6);

    // show --json and runs --json give the same ledger.
    const show = await runBuiltCli(['show', run.id, '--json'], { cwd: run.repo.dir, env: run.env });
    const overview = JSON.parse(show.stdout).run;
    expect(overview.costByRole.judge).toMatchObject({
      inputTokens: tokens.input,
      cacheWriteTokens: tokens.write,
      cacheReadTokens: tokens.read,
      outputTokens: tokens.output,
      batchCalls: 0,
    });
    const runs = await runBuiltCli(['runs', '--json'], { cwd: run.repo.dir, env: run.env });
    const [listed] = JSON.parse(runs.stdout);
    expect(listed.ledger.byRole.judge).toEqual(overview.costByRole.judge);
    expect(show.stdout).not.toBe('');
    const text = await runBuiltCli(['show', run.id], { cwd: run.repo.dir, env: run.env });
    expect(text.stdout).toMatch(/Ledger +generator +\d+ calls; in [\d,]+, out [\d,]+; \$/);
    expect(text.stdout).toMatch(/judge +\d+ calls; in [\d,]+ \(cache write [\d,]+, cache read [\d,]+\)/);

    // Spend alerts: each threshold once, at or past its share of the budget, printed as it happened.
    const alerts = ofType(run.events, 'spend_alert');
    expect(alerts.map((a) => a.threshold)).toEqual([0.5, 0.8]);
    for (const alert of alerts) {
      expect(alert.budgetUsd).toBe(BUDGET);
      expect(alert.spentUsd).toBeGreaterThanOrEqual(alert.threshold * BUDGET);
      expect(alert.spentUsd).toBeLessThanOrEqual(overview.costUsd);
    }
    expect(run.result.stderr).toContain('spend alert: 50% of budget.usd reached');
    expect(run.result.stderr).toContain('spend alert: 80% of budget.usd reached');
    expect(run.result.stdout).toMatch(/ledger +generator/);

    // on_finish read the summary of docs/design/cost-engine.md.
    const summary = JSON.parse(
      await readFile(path.join(run.repo.dir, 'experiments', 'release-note', 'summary.json'), 'utf8'),
    );
    expect(summary).toMatchObject({
      run_id: run.id,
      experiment: 'release-note',
      status: 'finished',
      stop_reason: 'usd',
      report: path.join(run.runDir, 'report.html'),
    });
    expect(summary.cost_usd).toBeCloseTo(overview.costUsd, 12);
    expect(summary.stop_reason).toBe(overview.stopReason);
  }, 240_000);

  it('turns a failing on_finish into a warning: the run still succeeds', async () => {
    const run = await runProject((config) => {
      config['on_finish'] = [process.execPath, '-e', 'console.error("webhook down"); process.exit(4)'];
    }, RECORDER);
    expect(run.result.code, run.result.stderr).toBe(0);
    const [warning] = ofType(run.events, 'warning').filter((w) => w.message.startsWith('on_finish'));
    expect(warning?.message).toBe(`on_finish: \`${process.execPath}\` exited with 4: webhook down`);
    expect(run.result.stderr).toContain('warning: on_finish:');
    expect(ofType(run.events, 'run_stopped').at(-1)?.reason).toBe('iterations');
  }, 240_000);
});
