/**
 * Holdout never reaches the mutator, and the sealed test split reaches
 * neither the mutator nor the loop: a real run through the built CLI against the fake LLM
 * server (Anthropic wire format, replies from the sim), whose holdout and test cases carry
 * unique marker strings in their ids, vars and a case check. Every request the server saw is
 * inspected: the generator renders the holdout cases (so the markers are in play), and no
 * mutator request holds any of them; the test cases are generated only after the last
 * mutator request, by the final evaluation, whose figures `show` then leads with. Needs
 * `npm run build` first.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { MUTATOR_SYSTEM_PROMPT } from '../../src/loop/mutator-prompt.js';
import { createSimProvider } from '../../src/providers/sim/sim-provider.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { type FakeLlmServer, respondWith, startFakeLlmServer } from '../helpers/fake-llm-server.js';

const GENERATOR = 'claude-sonnet-4-5';
const MUTATOR = 'claude-opus-4-1';
const JUDGE = 'claude-haiku-4-5';
const MARKERS = ['QX7-HOLDOUT-MARKER-ALPHA', 'QX7-HOLDOUT-MARKER-BRAVO', 'qx7-holdout-id-charlie'];
const TRAIN_MARKER = 'TRAIN-VISIBLE-MARKER';
const TEST_MARKERS = ['QX7-SEALED-MARKER-ECHO', 'QX7-SEALED-MARKER-FOXTROT'];
const TEST_IDS = ['qx7-sealed-id-delta', 'sealed-two'];

let work = '';
let server: FakeLlmServer;

beforeAll(async () => {
  requireBuiltCli();
  work = await mkdtemp(join(tmpdir(), 'ar-leak-'));
  server = await startFakeLlmServer({ respond: respondWith(createSimProvider({ provider: 'sim' })) });
});
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function writeExperiment(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const entry = (model: string, extra: Record<string, unknown> = {}) => ({
    provider: 'anthropic',
    model,
    base_url: server.anthropicBaseUrl,
    max_retries: 0,
    ...extra,
  });
  await writeFile(
    join(dir, 'experiment.yaml'),
    stringify({
      name: 'leak-check',
      prompt: 'prompt.md',
      cases: 'cases.yaml',
      rubric: 'rubric.md',
      models: {
        generator: entry(GENERATOR, { temperature: 0.7, max_tokens: 600 }),
        mutator: entry(MUTATOR, { max_tokens: 4000 }),
        judge: entry(JUDGE, { temperature: 0 }),
      },
      checks: [
        { type: 'starts-with', value: 'Subject:' },
        { type: 'word-count', max: 120 },
        { type: 'regex', value: '\\?\\s*$', name: 'ends-with-question' },
      ],
      search: { min_improvement: 0.005, noise_repeats: 1, holdout: 0.25 },
      budget: { iterations: 3 },
      concurrency: 4,
    }),
  );
  const train = (id: string, topic: string, audience: string) => ({
    id,
    vars: { topic, audience: `${audience} (${TRAIN_MARKER})` },
    split: 'train',
  });
  await writeFile(
    join(dir, 'cases.yaml'),
    stringify([
      train('saas-cto', 'Usage-based billing', 'CTO at a 50-person SaaS company'),
      train('clinic-owner', 'Online appointment booking', 'Owner of a dental clinic'),
      train('logistics-ops', 'Route optimisation', 'Head of operations at a courier'),
      train('school-it', 'Managed Chromebook fleets', 'IT coordinator at a school'),
      {
        id: 'qx7-holdout-id-charlie',
        vars: { topic: `Cold storage audits ${MARKERS[0]}`, audience: 'Warehouse manager' },
        split: 'holdout',
        // A case check whose failure reason would carry the marker, were it ever shown.
        checks: [{ type: 'icontains', value: MARKERS[0] }],
      },
      {
        id: 'holdout-two',
        vars: { topic: 'Fleet telematics', audience: `Dispatcher ${MARKERS[1]}` },
        split: 'holdout',
      },
      {
        id: TEST_IDS[0],
        vars: { topic: `Solar leasing ${TEST_MARKERS[0]}`, audience: 'Facilities lead' },
        split: 'test',
        checks: [{ type: 'icontains', value: TEST_MARKERS[0] }],
      },
      {
        id: TEST_IDS[1],
        vars: { topic: 'Payroll exports', audience: `Accountant ${TEST_MARKERS[1]}` },
        split: 'test',
      },
    ]),
  );
  await writeFile(join(dir, 'prompt.md'), 'Write a cold email about {{topic}} for {{audience}}.\n');
  await cp(join(REPO_ROOT, 'rubrics', 'cold-email.md'), join(dir, 'rubric.md'));
}

describe('holdout leak', () => {
  it('no mutator request holds a holdout marker, while the generator renders every one', async () => {
    const dir = join(work, 'experiments', 'leak-check');
    const runsDir = join(work, 'runs');
    await writeExperiment(dir);
    const result = await runBuiltCli(['run', dir, '--runs-dir', runsDir], {
      cwd: work,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-tests' }),
    });
    expect(result.code, result.stderr).toBe(0);

    const bodyOf = (model: string) =>
      server.log.filter((e) => e.body?.['model'] === model).map((e) => JSON.stringify(e.body));
    const mutatorRequests = bodyOf(MUTATOR);
    const generatorRequests = bodyOf(GENERATOR);
    expect(mutatorRequests.length).toBeGreaterThanOrEqual(3);
    expect(bodyOf(JUDGE).length).toBeGreaterThan(0);
    for (const request of mutatorRequests) {
      // What makes it a mutator request: our system prompt and the feedback block.
      expect(request).toContain(JSON.stringify(MUTATOR_SYSTEM_PROMPT).slice(1, 80));
      expect(request).toContain('autoresearch.mutator-feedback/v1');
      for (const marker of MARKERS) expect(request.toLowerCase()).not.toContain(marker.toLowerCase());
      expect(request).not.toContain('holdout-two');
    }
    // Sanity: the markers were in play, and train cases do reach the mutator.
    for (const marker of MARKERS.slice(0, 2))
      expect(
        generatorRequests.some((r) => r.includes(marker)),
        marker,
      ).toBe(true);
    expect(mutatorRequests.some((r) => r.includes(TRAIN_MARKER))).toBe(true);

    // The sealed test cases: never in a mutator request, generated only by the final evaluation.
    const sealed = (text: string) =>
      [...TEST_MARKERS, ...TEST_IDS].some((m) => text.toLowerCase().includes(m.toLowerCase()));
    for (const request of mutatorRequests) expect(sealed(request)).toBe(false);
    const bodies = server.log.map((e) => ({ model: e.body?.['model'], text: JSON.stringify(e.body) }));
    const lastMutator = bodies.findLastIndex((b) => b.model === MUTATOR);
    const testGenerations = bodies.flatMap((b, i) => (b.model === GENERATOR && sealed(b.text) ? [i] : []));
    expect(testGenerations.length).toBeGreaterThanOrEqual(TEST_IDS.length);
    for (const index of testGenerations) expect(index).toBeGreaterThan(lastMutator);

    // What the run kept of the mutator's input says the same.
    const [runId] = runFolders(runsDir);
    const iterations = join(runsDir, String(runId), 'iterations');
    const mutationFiles = (await readdir(iterations)).filter((n) => n !== '0000');
    expect(mutationFiles.length).toBeGreaterThanOrEqual(3);
    for (const name of mutationFiles) {
      const text = (await readFile(join(iterations, name, 'mutation.json'), 'utf8')).toLowerCase();
      for (const marker of MARKERS) expect(text).not.toContain(marker.toLowerCase());
      expect(sealed(text)).toBe(false);
    }
    // No loop evaluation holds a test case; the final evaluation scores them.
    for (const name of await readdir(iterations)) {
      for (const candidate of await readdir(join(iterations, name, 'candidates'))) {
        const file = join(iterations, name, 'candidates', candidate, 'evaluation.json');
        const evaluation = await readFile(file, 'utf8').catch(() => '');
        expect(sealed(evaluation), file).toBe(false);
      }
    }
    const runDir = join(runsDir, String(runId));
    const final = JSON.parse(await readFile(join(runDir, 'final', 'baseline', 'evaluation.json'), 'utf8'));
    const finalSplits = final.evaluation.cases.map((c: { id: string; split: string }) => [c.id, c.split]);
    for (const id of TEST_IDS) expect(finalSplits).toContainEqual([id, 'test']);
    expect(final.scores.test.cases.map((c: { caseId: string }) => c.caseId).sort()).toEqual(
      [...TEST_IDS].sort(),
    );
    expect(final.scores.all.cases.map((c: { caseId: string }) => c.caseId)).not.toContain(TEST_IDS[0]);
    const events = (await readFile(join(runDir, 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const finalEvent = events.find((e) => e.type === 'final_evaluation');
    expect(typeof finalEvent.baseline.test).toBe('number');
    expect(typeof finalEvent.best.test).toBe('number');
    expect(finalEvent.baseline.test).toBe(final.scores.test.total);

    // The summary and `show` lead with the test figures.
    const summary = `${result.stdout}\n${result.stderr}`;
    expect(summary).toMatch(/final check \(fresh\) +test \d\.\d{3} → \d\.\d{3}.*\n?.*train /);
    const show = await runBuiltCli(['show', String(runId), '--runs-dir', runsDir], {
      cwd: work,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-tests' }),
    });
    expect(show.code, show.stderr).toBe(0);
    const lines = show.stdout.split('\n');
    const testLine = lines.findIndex((l) => /^Test +\d\.\d{3} → \d\.\d{3}/.test(l));
    const trainLine = lines.findIndex((l) => l.startsWith('Train '));
    expect(testLine, show.stdout).toBeGreaterThanOrEqual(0);
    expect(testLine).toBeLessThan(trainLine);
    expect(lines[testLine]).toContain('sealed: scored only by the final evaluation');
  });
});
