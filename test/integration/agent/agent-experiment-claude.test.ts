/**
 * An agent experiment run end to end with the real Claude Code (test/helpers/pinned-clis.js) as
 * its generator: `run` through the built CLI, in a fresh repository, against the shared fake
 * server. Claude Code's requests are scripted (read the notes, write RELEASE_NOTES.md, finish) so
 * its real tools act in each case's sandboxed workspace; the mutator's and the judge's requests
 * are answered by the simulated model — the judge's carrying each case's output folder (the file
 * Claude Code wrote), the grader's the agent's own transcript. The run is killed after its baseline's first agent cases
 * and resumed: finished cases are taken from their records and the agents' repeated requests are
 * answered from the run's agent-cache, so no agent call reaches the server twice. Needs
 * `npm run build` first.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCaseRecord } from '../../../src/agent/agent-record.js';
import { type GraderCallInput, parseGraderUserMessage } from '../../../src/protocol/grading.js';
import { type JudgeCallInput, parseJudgeUserMessage } from '../../../src/protocol/judge-call.js';
import { simulateCompletion } from '../../../src/providers/sim/simulate.js';
import { cleanEnv, requireBuiltCli, runBuiltCli, runFolders } from '../../helpers/built-cli.js';
import { type FakeLlmServer, type FakeRequest, startFakeLlmServer } from '../../helpers/fake-llm-server.js';
import { pinnedCli } from '../../helpers/pinned-clis.js';
import { createTempRepo, type TempRepo } from '../../helpers/temp-repo.js';

const KEY = 'sk-agent-experiment-key-42';
const CASES = ['r1', 'r2', 'r3', 'r4'];
let server: FakeLlmServer;
let repo: TempRepo;
let reference: TempRepo;
let budgeted: TempRepo;

/** Claude Code's turns: read the notes, write the release notes, say so. */
function agentTurn(req: FakeRequest) {
  const done = req.messages.filter((m) => m.role === 'tool').length;
  const task = req.messages.find((m) => m.role === 'user' && /version (\S+)/.test(m.content))?.content ?? '';
  const version = /version (\S+?)[ .:]/.exec(task)?.[1] ?? '?';
  if (done === 0)
    return {
      toolCalls: [{ id: 'read_0', name: 'Read', arguments: { file_path: '/workspace/notes/changes.md' } }],
    };
  if (done === 1)
    return {
      toolCalls: [
        {
          id: 'write_1',
          name: 'Write',
          arguments: {
            file_path: '/workspace/RELEASE_NOTES.md',
            content: `# ${version}\n\n## Fixed\n- The export button works again.\n`,
          },
        },
      ],
    };
  return `Wrote RELEASE_NOTES.md for ${version}.`;
}

/** Every request Claude Code's proxy forwarded, as the server read it. */
const agentRequests: FakeRequest[] = [];
/** What the judge's and the grader's model calls asked (docs/design/judge-protocol.md "Agent outputs"). */
const judgeCalls: JudgeCallInput[] = [];
const graderCalls: GraderCallInput[] = [];

function respond(req: FakeRequest) {
  if (req.tools?.some((t) => t.name === 'Write')) {
    agentRequests.push(req);
    return agentTurn(req);
  }
  const asked = req.messages.find((m) => m.role === 'user')?.content ?? '';
  const judged = parseJudgeUserMessage(asked);
  if (judged !== undefined) judgeCalls.push(judged);
  const graded = parseGraderUserMessage(asked);
  if (graded !== undefined) graderCalls.push(graded);
  const result = simulateCompletion({
    ...(req.system === undefined ? {} : { system: req.system }),
    messages: req.messages.filter((m) => m.role === 'user' || m.role === 'assistant'),
    model: req.model,
  });
  return { text: result.text };
}

beforeAll(async () => {
  requireBuiltCli();
  server = await startFakeLlmServer({ requireKey: KEY });
  server.configure({ respond });
  const files: Record<string, string> = {
    'exp/SKILL.md':
      '---\nname: release-notes\ndescription: Write release notes from notes.\n---\n\nRead the notes and write RELEASE_NOTES.md.\n',
    'exp/rubric.md':
      '# Release notes\n\n## Criteria\n\n### Clarity\nweight: 1\n\nWhat it measures: is it clear?\n\n| Score | Meaning |\n|---|---|\n| 1 | unclear |\n| 5 | clear |\n',
    'exp/cases.yaml': CASES.map(
      (id, i) =>
        `- id: ${id}\n  vars: { version: "1.${i}.0" }\n  fixtures: cases/${id}\n  expectations: ["Reads notes/changes.md"]\n` +
        // One case fails a check, so the mutator has a failing case to be told about.
        (id === 'r1'
          ? '  checks: [{ type: contains, value: "no agent writes this", name: never-met }]\n'
          : ''),
    ).join(''),
    'exp/experiment.yaml': [
      'name: notes-agent',
      'prompt: SKILL.md',
      'cases: cases.yaml',
      'rubric: rubric.md',
      'agent: { place: skill, name: release-notes, task: "Write the release notes for version {{version}} from notes/.", tools: [Read, Write], max_turns: 6, timeout_s: 120 }',
      'models:',
      `  generator: { provider: claude-cli, model: sonnet, binary: ${JSON.stringify(pinnedCli('claude'))} }`,
      `  mutator: { provider: anthropic, model: claude-sonnet-4-5, base_url: ${JSON.stringify(server.url)} }`,
      `  judge: { provider: anthropic, model: claude-sonnet-4-5, temperature: 0, base_url: ${JSON.stringify(server.url)} }`,
      `  grader: { provider: anthropic, model: claude-sonnet-4-5, temperature: 0, base_url: ${JSON.stringify(server.url)} }`,
      'checks: [{ type: contains, value: "=== RELEASE_NOTES.md ===", name: writes-notes }]',
      'search: { holdout: 0, minibatch: 4 }',
      'judging: { anchors: 0 }',
      'concurrency: 2',
    ].join('\n'),
  };
  for (const id of CASES) files[`exp/cases/${id}/notes/changes.md`] = `Fixed the export button (${id}).\n`;
  const config = { 'user.name': 'Test', 'user.email': 'test@example.com' };
  repo = await createTempRepo({ files, config });
  reference = await createTempRepo({ files, config });
  budgeted = await createTempRepo({ files, config });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await repo?.cleanup();
  await reference?.cleanup();
  await budgeted?.cleanup();
});

const env = (where = repo) =>
  cleanEnv({ ...where.env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });

async function records(dir: string): Promise<AgentCaseRecord[]> {
  const names = await readdir(join(dir, 'agent')).catch(() => [] as string[]);
  const out: AgentCaseRecord[] = [];
  for (const name of names) {
    const text = await readFile(join(dir, 'agent', name, 'agent.json'), 'utf8').catch(() => undefined);
    if (text !== undefined) out.push(AgentCaseRecord.parse(JSON.parse(text)));
  }
  return out;
}

describe('an agent experiment with the real Claude Code', () => {
  it('runs, is killed during its agent cases, and resumes without paying for an agent call twice', async () => {
    // The same run, not killed: how many agent calls reach the server when each is made once.
    const whole = await runBuiltCli(['run', 'exp', '--iterations', '1'], {
      cwd: reference.dir,
      env: env(reference),
    });
    expect(whole.code, whole.stderr).toBe(0);
    const needed = agentRequests.length;
    agentRequests.length = 0;

    const killed = await runBuiltCli(['run', 'exp', '--iterations', '1'], {
      cwd: repo.dir,
      env: { ...env(), AUTORESEARCH_TEST_KILL_AT: 'generated:2' },
    });
    expect(killed.code, killed.stderr).not.toBe(0);
    const [runId = ''] = runFolders(repo.path('runs'));
    const baseline = repo.path(`runs/${runId}/iterations/0000/candidates/0`);
    const before = await records(baseline);
    expect(before.length, `${killed.stdout}\n${killed.stderr}`).toBeGreaterThanOrEqual(2);
    const callsBefore = agentRequests.length;

    const resumed = await runBuiltCli(['resume', runId], { cwd: repo.dir, env: env() });
    expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    const after = await records(baseline);
    expect(after.map((r) => r.caseId).sort()).toEqual(CASES);
    for (const record of after) {
      expect(record).toMatchObject({ agent: 'claude', endReason: 'done', turns: 3 });
      expect(record.tools).toEqual({ Read: 1, Write: 1 });
      // Each call in order with its arguments in a line (agent-calls.ts), from the real stream.
      expect(record.calls).toEqual([
        { tool: 'Read', args: '/workspace/notes/changes.md' },
        { tool: 'Write', args: '/workspace/RELEASE_NOTES.md' },
      ]);
      expect(record.files).toEqual([
        expect.objectContaining({ path: 'RELEASE_NOTES.md', status: 'created' }),
      ]);
      const kept = await readFile(
        join(baseline, 'agent', `${record.caseId}.0`, 'files', 'RELEASE_NOTES.md'),
        'utf8',
      );
      expect(kept).toContain('## Fixed');
    }
    // The killed process and the resume together made exactly the calls one whole run makes:
    // finished cases came from their records, the cut ones' calls from the agent-cache.
    expect(callsBefore).toBeGreaterThan(0);
    expect(agentRequests.length).toBe(needed);
    const transcript = await readFile(join(baseline, 'agent', 'r1.0', 'transcript.md'), 'utf8');
    expect(transcript).toContain('**Write**');
    expect(transcript).toContain('/workspace/RELEASE_NOTES.md');
    // No agent held the key: every agent request came with the proxy's token, which the fake accepts only as the real key the proxy added.
    for (const req of agentRequests) expect(JSON.stringify(req.body)).not.toContain(KEY);

    // The judge's model was sent each case's folder: the file Claude Code wrote, whole, under its path.
    expect(judgeCalls.length).toBeGreaterThan(0);
    for (const call of judgeCalls) {
      expect(call.folder).toBe(true);
      expect(call.output).toMatch(/File: RELEASE_NOTES\.md \(created, \d+ bytes\)/);
      expect(call.output).toContain('## Fixed\n- The export button works again.');
      expect(call.output).toContain('Wrote RELEASE_NOTES.md for');
    }
    // The grader's was sent the agent's own transcript, as the case's record holds it, and its files.
    const transcripts = new Set(
      await Promise.all(
        CASES.map((id) => readFile(join(baseline, 'agent', `${id}.0`, 'transcript.md'), 'utf8')),
      ),
    );
    expect(graderCalls.length).toBeGreaterThan(0);
    for (const call of graderCalls) {
      expect(transcripts.has(call.transcript), call.transcript).toBe(true);
      expect(call.transcript).toContain('**Write**');
      expect(call.outputs.map((o) => o.file)).toEqual([
        'outputs/output_00/files/RELEASE_NOTES.md',
        'outputs/output_00/final-message.md',
        'outputs/output_00/listing.json',
      ]);
    }

    // The mutator was told what Claude Code did in the failing train cases (docs/agents.md).
    const mutation = await readFile(repo.path(`runs/${runId}/iterations/0001/mutation.json`), 'utf8');
    type Told = { feedback?: { failing_cases: { case_id: string; agent?: { digest: string } }[] } };
    const record = JSON.parse(mutation) as Told & { candidates?: Told[] };
    const failing = (record.candidates ?? [record]).flatMap((c) => c.feedback?.failing_cases ?? []);
    expect(failing.map((c) => c.case_id)).toContain('r1');
    const told = failing.map((c) => c.agent?.digest);
    expect(told.length).toBeGreaterThan(0);
    for (const digest of told) {
      expect(digest).toContain('tools: Read ×1, Write ×1 (2 calls)');
      expect(digest).toContain('files: created RELEASE_NOTES.md');
      expect(digest).toContain('1. Read /workspace/notes/changes.md\n2. Write /workspace/RELEASE_NOTES.md');
    }

    const show = await runBuiltCli(['show', runId], { cwd: repo.dir, env: env() });
    expect(show.stdout).toMatch(
      /Agent cases \(final check, (best|baseline)\): 4 · done 4 · 3\.0 turns on average · tools Read 4, Write 4/,
    );
  }, 300_000);

  it('holds budget.usd on each agent call: one whose worst case cannot fit is never forwarded and the run stops', async () => {
    agentRequests.length = 0;
    // Claude Code asks for up to 32,000 output tokens a call: at sonnet's $15 per million that
    // alone is $0.48, so a $0.30 budget cannot hold a single agent call's worst case.
    const run = await runBuiltCli(['run', 'exp', '--iterations', '1', '--usd', '0.30'], {
      cwd: budgeted.dir,
      env: env(budgeted),
    });
    expect(run.stdout).toMatch(
      /stopped \(usd\): spent \$0\.000 of the \$0\.300 budget; the next call could cost up to \$\d/,
    );
    expect(agentRequests).toEqual([]);
    // Stopped, not failed: the baseline is journaled as interrupted, for `resume --usd +X`.
    expect(run.stdout).toContain('1 interrupted');
  }, 120_000);
});
