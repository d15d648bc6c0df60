/**
 * An agent experiment's review with the real sandboxed judge and grader (docs/design/judge-protocol.md
 * "Agent outputs", docs/design/grader-protocol.md "Agent cases"): the simulated agent does the
 * cases in real workspaces; spy programs record their sandboxes. The judge's holds one folder
 * `outputs/output_NN/` per (case, sample) — the final message, the listing and the files the agent
 * wrote — and the rubric, with no text of the skill; judge-map names the folders. The grader's
 * holds the sample's folder and, as transcript.md, the agent's own transcript from its record.
 * Then the built-in judge and grader (the simulated model, in their sandboxes) judge and grade
 * the same folders, and a PASS quoting only the transcript is kept. Needs `npm run build` first.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSimAgent } from '../../src/agent/sim-agent.js';
import { evaluateCandidate } from '../../src/evaluate/evaluate-candidate.js';
import { createSandboxedReview } from '../../src/evaluate/sandboxed-review.js';
import { loadExperiment } from '../../src/experiment/load-experiment.js';
import { FolderListing } from '../../src/protocol/output-folder.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import { requireBuiltCli } from '../helpers/built-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const SPY_JUDGE = path.resolve('test/fixtures/judges/spy-judge.mjs');
const GRADER = path.resolve('test/fixtures/graders/fixture-grader.mjs');
const SKILL_MARK = 'PANGOLIN-SKILL-3f9';
const SKILL = `---\nname: notes\ndescription: Release notes from notes.\n---\n\n${SKILL_MARK}. Read every file in notes/, then write the release notes to RELEASE_NOTES.md, with a "## Fixed" section.\n`;
const env: NodeJS.ProcessEnv = { ...process.env };
const tmp = useTempDir('agent-review-');

interface SpyFile {
  path: string;
  text: string;
}

async function setUp(dir: string, models: Record<string, unknown>) {
  const experimentDir = path.join(dir, 'exp');
  await mkdir(path.join(experimentDir, 'cases/a/notes'), { recursive: true });
  await mkdir(path.join(experimentDir, 'cases/b/notes'), { recursive: true });
  await writeFile(path.join(experimentDir, 'SKILL.md'), SKILL);
  await writeFile(path.join(experimentDir, 'cases/a/notes/changes.md'), 'Fixed the export button.\n');
  await writeFile(path.join(experimentDir, 'cases/b/notes/changes.md'), 'Fixed the login form.\n');
  await writeFile(path.join(experimentDir, 'rubric.md'), '## Criteria\n\n### Clarity\n\n### Accuracy\n');
  await writeFile(
    path.join(experimentDir, 'cases.yaml'),
    stringify([
      { id: 'a', vars: { version: '1.0' }, fixtures: 'cases/a', expectations: ['Reads notes/changes.md'] },
      { id: 'b', vars: { version: '1.1' }, fixtures: 'cases/b', expectations: ['Reads notes/changes.md'] },
    ]),
  );
  await writeFile(
    path.join(experimentDir, 'experiment.yaml'),
    stringify({
      name: 'notes',
      prompt: 'SKILL.md',
      cases: 'cases.yaml',
      rubric: 'rubric.md',
      agent: { place: 'skill', name: 'notes', task: 'Use the notes skill for version {{version}}.' },
      models: { generator: { provider: 'sim' }, ...models },
      search: { holdout: 0 },
      judging: { anchors: 0 },
      concurrency: 2,
    }),
  );
  const { experiment } = await loadExperiment(experimentDir, { cwd: dir, env });
  return experiment;
}

async function evaluate(dir: string, models: Record<string, unknown>) {
  const experiment = await setUp(dir, models);
  const pool = createModelPool({ models: experiment.models, concurrency: 2, env });
  const recordDir = (caseId: string, sample: number) => path.join(dir, 'agent', `${caseId}.${sample}`);
  try {
    const outcome = await evaluateCandidate(
      { experiment, prompt: experiment.prompt, cases: experiment.cases, samples: 1, sampleBase: 0, seed: 3 },
      {
        pool,
        env,
        agent: runSimAgent,
        agentRecordDir: recordDir,
        ...createSandboxedReview(experiment, pool, { env }),
      },
    );
    if (!outcome.ok) throw new Error(`the evaluation failed: ${outcome.message}`);
    return { outcome, recordDir };
  } finally {
    await pool.close();
  }
}

const filesOf = (raw: unknown): SpyFile[] =>
  ((raw as { spy: { cwdFiles: SpyFile[] } }).spy.cwdFiles ?? []).filter((f) => !f.path.endsWith('/'));

beforeAll(() => requireBuiltCli());

describe('an agent experiment’s judge and grader', () => {
  it('see each (case, sample) as a folder of what the agent left, and the grader the agent’s own transcript', async () => {
    const dir = tmp();
    const { outcome, recordDir } = await evaluate(dir, {
      judge: { command: [process.execPath, SPY_JUDGE], timeout_s: 60 },
      grader: { command: [process.execPath, GRADER, 'spy'], timeout_s: 60 },
    });
    const judge = outcome.judge;
    if (judge === undefined) throw new Error('not judged');
    const judgeFiles = filesOf(judge.raw);
    expect(judge.map.map((m) => m.file)).toEqual(['output_00', 'output_01']);
    expect(judge.perOutput.map((p) => p.file).sort()).toEqual(['output_00', 'output_01']);
    const tops = [...new Set(judgeFiles.map((f) => f.path.split('/').slice(0, 3).join('/')))].sort();
    expect(tops).toEqual([
      'outputs/output_00/files',
      'outputs/output_00/final-message.md',
      'outputs/output_00/listing.json',
      'outputs/output_01/files',
      'outputs/output_01/final-message.md',
      'outputs/output_01/listing.json',
      'rubric.md',
    ]);
    for (const entry of judge.map) {
      const record = JSON.parse(
        await readFile(path.join(recordDir(entry.case_id, entry.sample), 'agent.json'), 'utf8'),
      );
      const at = (name: string) => judgeFiles.find((f) => f.path === `outputs/${entry.file}/${name}`)?.text;
      expect(at('final-message.md')).toBe(record.finalMessage);
      const listing = FolderListing.parse(JSON.parse(at('listing.json') ?? ''));
      expect(listing.files.map((f) => f.path)).toEqual(record.files.map((f: { path: string }) => f.path));
      expect(listing.files.map((f) => f.path)).toContain('RELEASE_NOTES.md');
      const kept = await readFile(
        path.join(recordDir(entry.case_id, entry.sample), 'files/RELEASE_NOTES.md'),
        'utf8',
      );
      expect(at('files/RELEASE_NOTES.md')).toBe(kept);
    }
    // The skill reached the agent, never the judge.
    expect(JSON.stringify(judgeFiles)).not.toContain(SKILL_MARK);

    for (const grading of outcome.gradings) {
      const files = filesOf(grading.raw);
      const transcript = await readFile(path.join(recordDir(grading.caseId, 0), 'transcript.md'), 'utf8');
      expect(files.find((f) => f.path === 'transcript.md')?.text).toBe(transcript);
      expect(transcript).toContain('**Read**');
      expect(files.map((f) => f.path).sort()).toEqual([
        'expectations.json',
        'outputs/output_00/files/RELEASE_NOTES.md',
        'outputs/output_00/final-message.md',
        'outputs/output_00/listing.json',
        'transcript.md',
      ]);
    }
  }, 60_000);

  it('after a resume, cases taken from their records reach the judge and grader exactly as before', async () => {
    const dir = tmp();
    const models = {
      judge: { command: [process.execPath, SPY_JUDGE], timeout_s: 60 },
      grader: { command: [process.execPath, GRADER, 'spy'], timeout_s: 60 },
    };
    const first = await evaluate(dir, models);
    const again = await evaluate(dir, models);
    expect(first.outcome.generations.every((g) => !g.cached)).toBe(true);
    expect(again.outcome.generations.every((g) => g.cached)).toBe(true);
    expect(filesOf(again.outcome.judge?.raw)).toEqual(filesOf(first.outcome.judge?.raw));
    const byCase = (o: typeof first.outcome) =>
      Object.fromEntries(o.gradings.map((g) => [g.caseId, filesOf(g.raw)]));
    expect(byCase(again.outcome)).toEqual(byCase(first.outcome));
  }, 60_000);

  it('are judged and graded by the built-in programs, a PASS quoting the transcript kept', async () => {
    const dir = tmp();
    const { outcome, recordDir } = await evaluate(dir, {
      judge: { provider: 'sim' },
      grader: { provider: 'sim' },
    });
    expect(outcome.judge?.perOutput).toHaveLength(2);
    expect(outcome.gradings).toHaveLength(2);
    for (const grading of outcome.gradings) {
      const [verdict] = grading.grading.expectations;
      expect(verdict, JSON.stringify(grading.grading)).toMatchObject({ passed: true });
      expect(verdict?.flag).toBeUndefined();
      const transcript = await readFile(path.join(recordDir(grading.caseId, 0), 'transcript.md'), 'utf8');
      const notes = await readFile(path.join(recordDir(grading.caseId, 0), 'files/RELEASE_NOTES.md'), 'utf8');
      const quote = (verdict?.evidence ?? '').trim();
      expect(transcript).toContain(quote);
      expect(notes).not.toContain(quote);
      const record = JSON.parse(
        await readFile(path.join(recordDir(grading.caseId, 0), 'agent.json'), 'utf8'),
      );
      expect(record.finalMessage).not.toContain(quote);
    }
  }, 60_000);
});
