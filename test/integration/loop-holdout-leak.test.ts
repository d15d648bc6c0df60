/**
 * Holdout never reaches the mutator (issue 5): a real run through the built CLI against the
 * fake LLM server (Anthropic wire format, replies from the sim), whose holdout cases carry
 * unique marker strings in their ids, vars and a case check. Every request the server saw is
 * inspected: the generator renders the holdout cases (so the markers are in play), and no
 * mutator request holds any of them. Needs `npm run build` first.
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

    // What the run kept of the mutator's input says the same.
    const [runId] = runFolders(runsDir);
    const iterations = join(runsDir, String(runId), 'iterations');
    const mutationFiles = (await readdir(iterations)).filter((n) => n !== '0000');
    expect(mutationFiles.length).toBeGreaterThanOrEqual(3);
    for (const name of mutationFiles) {
      const text = (await readFile(join(iterations, name, 'mutation.json'), 'utf8')).toLowerCase();
      for (const marker of MARKERS) expect(text).not.toContain(marker.toLowerCase());
    }
  });
});
