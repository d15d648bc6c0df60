/**
 * Holdout never reaches the mutator in an agent experiment either (docs/agents.md "What the
 * mutator sees"): a real run through the built CLI, its cases done by the simulated agent in
 * their workspaces, the mutator on the fake LLM server (checks only, no judge, to keep it quick) (Anthropic wire format,
 * replies from the sim). The holdout and test cases carry marker strings in their ids, vars and
 * fixture files — which the agent reads (the path is in its tool call's arguments, the text in
 * its transcript) and copies into the file it writes. The train cases' digests do reach the
 * mutator (a train fixture's path is in them); no mutator request and no mutation.json holds a
 * holdout or test marker. Needs `npm run build` first.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createSimProvider } from '../../src/providers/sim/sim-provider.js';
import { cleanEnv, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { type FakeLlmServer, respondWith, startFakeLlmServer } from '../helpers/fake-llm-server.js';

const MUTATOR = 'claude-opus-4-1';
const HOLDOUT = ['QX9-AGENT-HOLDOUT-FILE', 'QX9-AGENT-HOLDOUT-TEXT', 'qx9-holdout-agent-id'];
const SEALED = ['QX9-AGENT-SEALED-FILE', 'QX9-AGENT-SEALED-TEXT', 'qx9-sealed-agent-id'];
const TRAIN_FILE = 'train-visible-notes.md';

let work = '';
let server: FakeLlmServer;

beforeAll(async () => {
  requireBuiltCli();
  work = await mkdtemp(join(tmpdir(), 'ar-agent-leak-'));
  server = await startFakeLlmServer({ respond: respondWith(createSimProvider({ provider: 'sim' })) });
});
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function writeExperiment(dir: string): Promise<void> {
  const notes = async (name: string, file: string, text: string) => {
    await mkdir(join(dir, 'cases', name, 'notes'), { recursive: true });
    await writeFile(join(dir, 'cases', name, 'notes', file), `${text}\n`);
  };
  const entry = (model: string, extra: Record<string, unknown> = {}) => ({
    provider: 'anthropic',
    model,
    base_url: server.anthropicBaseUrl,
    max_retries: 0,
    ...extra,
  });
  const train = ['one', 'two', 'three', 'four'];
  for (const id of train)
    await notes(id, TRAIN_FILE, `- Fixed the export of release ${id}.\n- refactor of the parser`);
  await notes('holdout', `${HOLDOUT[0]}.md`, `- Fixed the ${HOLDOUT[1]} importer.`);
  await notes('sealed', `${SEALED[0]}.md`, `- Fixed the ${SEALED[1]} importer.`);
  await writeFile(
    join(dir, 'experiment.yaml'),
    stringify({
      name: 'agent-leak',
      prompt: 'SKILL.md',
      cases: 'cases.yaml',
      agent: {
        place: 'skill',
        name: 'release-notes',
        task: 'Use the release-notes skill: write the release notes for version {{version}} from notes/.',
        max_turns: 10,
        timeout_s: 60,
      },
      models: {
        generator: { provider: 'sim' },
        mutator: entry(MUTATOR, { max_tokens: 4000 }),
      },
      checks: [
        { type: 'contains', value: '=== RELEASE_NOTES.md ===', name: 'writes-RELEASE_NOTES.md' },
        { type: 'not-icontains-any', value: ['refactor'] },
      ],
      // Greedy: the shipped example covers pareto (agent-sim-run.test.ts).
      search: { strategy: 'greedy', holdout: 0.25, seed: 3 },
      budget: { iterations: 2 },
      concurrency: 4,
    }),
  );
  await writeFile(
    join(dir, 'cases.yaml'),
    stringify([
      ...train.map((id) => ({
        id,
        vars: { version: `1.${id.length}` },
        fixtures: `cases/${id}`,
        split: 'train',
      })),
      { id: HOLDOUT[2], vars: { version: `9.9 ${HOLDOUT[1]}` }, fixtures: 'cases/holdout', split: 'holdout' },
      { id: SEALED[2], vars: { version: `8.8 ${SEALED[1]}` }, fixtures: 'cases/sealed', split: 'test' },
    ]),
  );
  await writeFile(
    join(dir, 'SKILL.md'),
    '---\nname: release-notes\ndescription: Write release notes from developer notes.\n---\n\nRead the notes and summarise what changed.\n',
  );
}

describe('holdout leak, agent experiment', () => {
  it('the agent digests of train cases reach the mutator; nothing of a holdout or test case does', async () => {
    const dir = join(work, 'experiments', 'agent-leak');
    const runsDir = join(work, 'runs');
    await writeExperiment(dir);
    const result = await runBuiltCli(['run', dir, '--runs-dir', runsDir], {
      cwd: work,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-tests' }),
    });
    expect(result.code, result.stderr).toBe(0);
    const [runId] = runFolders(runsDir);
    const runDir = join(runsDir, String(runId));

    // The markers were in play: the agent read the holdout's notes and its transcript shows it.
    const holdoutTranscript = await readFile(
      join(runDir, 'iterations/0000/candidates/0/agent', `${HOLDOUT[2]}.0`, 'transcript.md'),
      'utf8',
    );
    expect(holdoutTranscript).toContain(HOLDOUT[0]);
    expect(holdoutTranscript).toContain(HOLDOUT[1]);

    const mutatorRequests = server.log
      .filter((e) => e.body?.['model'] === MUTATOR)
      .map((e) => JSON.stringify(e.body).toLowerCase());
    expect(mutatorRequests.length).toBeGreaterThanOrEqual(2);
    // The train digests did reach it: a train fixture's path is one of the agent's calls.
    expect(
      mutatorRequests.some((r) => r.includes('agent run') && r.includes(`read notes/${TRAIN_FILE}`)),
    ).toBe(true);
    for (const request of mutatorRequests)
      for (const marker of [...HOLDOUT, ...SEALED]) expect(request).not.toContain(marker.toLowerCase());

    const iterations = join(runDir, 'iterations');
    const told: unknown[] = [];
    for (const name of (await readdir(iterations)).filter((n) => n !== '0000')) {
      const text = await readFile(join(iterations, name, 'mutation.json'), 'utf8');
      for (const marker of [...HOLDOUT, ...SEALED])
        expect(text.toLowerCase()).not.toContain(marker.toLowerCase());
      const mutation = JSON.parse(text) as { feedback: { failing_cases: { agent?: unknown }[] } };
      told.push(...mutation.feedback.failing_cases.flatMap((c) => (c.agent ? [c.agent] : [])));
    }
    expect(told.length).toBeGreaterThan(0);
  });
});
