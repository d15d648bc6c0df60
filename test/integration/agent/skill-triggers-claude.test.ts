/**
 * A skill-trigger experiment evaluated with the real Claude Code (test/helpers/pinned-clis.js)
 * against the fake server: each case's query is the task, and the scripted model picks the skill
 * up with the Skill tool for one query, reads its SKILL.md with Read for another, and answers
 * without it for two. The cases' should_trigger checks see each from the transcript: three
 * judged right, and one false trigger judged wrong. Needs `npm run build` first.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChecksFile } from '../../../src/checks/check-result.js';
import { cleanEnv, requireBuiltCli, runBuiltCli } from '../../helpers/built-cli.js';
import { type FakeLlmServer, type FakeRequest, startFakeLlmServer } from '../../helpers/fake-llm-server.js';
import { pinnedCli } from '../../helpers/pinned-clis.js';
import { createTempRepo, type TempRepo } from '../../helpers/temp-repo.js';

const KEY = 'sk-skill-triggers-key-7';
const SKILL_FILE = '/workspace/.claude/skills/schema-migrations/SKILL.md';
let server: FakeLlmServer;
let repo: TempRepo;

/** What the scripted model does for each query: use the skill one way or the other, or answer. */
function respond(req: FakeRequest) {
  const asked = req.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
  if (req.messages.some((m) => m.role === 'tool')) return 'Done.';
  if (asked.includes('orders table'))
    return { toolCalls: [{ id: 'skill_0', name: 'Skill', arguments: { skill: 'schema-migrations' } }] };
  if (asked.includes('price column'))
    return { toolCalls: [{ id: 'read_0', name: 'Read', arguments: { file_path: SKILL_FILE } }] };
  // A false trigger: a backup is no schema change, and the model uses the skill anyway.
  if (asked.includes('Back up'))
    return { toolCalls: [{ id: 'skill_0', name: 'Skill', arguments: { skill: 'schema-migrations' } }] };
  return 'An index is a sorted lookup structure, so the database finds rows without a full scan.';
}

beforeAll(async () => {
  requireBuiltCli();
  server = await startFakeLlmServer({ requireKey: KEY });
  server.configure({ respond });
  const files: Record<string, string> = {
    'exp/SKILL.md':
      '---\nname: schema-migrations\ndescription: Write database schema migrations.\n---\n\nWrite each change as a new file under migrations/.\n',
    'exp/cases.yaml': [
      '- id: orders-table',
      '  vars: { query: "Add a migration that creates an orders table" }',
      '  should_trigger: true',
      '- id: rename-price',
      '  vars: { query: "Rename the price column in the products table" }',
      '  should_trigger: true',
      '- id: explain-index',
      '  vars: { query: "Explain how a database index speeds up a lookup" }',
      '  should_trigger: false',
      '- id: backup',
      '  vars: { query: "Back up the production database before the release" }',
      '  should_trigger: false',
      '',
    ].join('\n'),
    'exp/experiment.yaml': [
      'name: triggers',
      'prompt: SKILL.md',
      'cases: cases.yaml',
      'agent: { place: skill, name: schema-migrations, task: "{{query}}", tools: [Skill, Read], max_turns: 3, timeout_s: 120 }',
      'models:',
      `  generator: { provider: claude-cli, model: haiku, binary: ${JSON.stringify(pinnedCli('claude'))} }`,
      'scoring: { weights: { checks: 1, judge: 0, expectations: 0 } }',
      'search: { holdout: 0 }',
      'concurrency: 2',
    ].join('\n'),
  };
  repo = await createTempRepo({ files, config: { 'user.name': 'Test', 'user.email': 'test@example.com' } });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await repo?.cleanup();
});

describe('skill triggers with the real Claude Code', () => {
  it('sees the skill used through the Skill tool or a Read of its SKILL.md, and not used when the model answers', async () => {
    const result = await runBuiltCli(['eval', 'exp', '--json'], {
      cwd: repo.dir,
      env: cleanEnv({ ...repo.env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    });
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as { runDir: string; splits: { all: { total: number } } };
    const checks = ChecksFile.parse(
      JSON.parse(await readFile(join(summary.runDir, 'iterations/0000/candidates/0/checks.json'), 'utf8')),
    );
    const byCase = Object.fromEntries(checks.results.map((r) => [r.caseId, r.outcomes]));
    expect(byCase['orders-table']).toEqual([
      expect.objectContaining({
        type: 'skill-used',
        pass: true,
        reason:
          'the agent used the skill "schema-migrations" (call 1: called Skill with "schema-migrations")',
      }),
    ]);
    expect(byCase['rename-price']).toEqual([
      expect.objectContaining({
        type: 'skill-used',
        pass: true,
        reason: expect.stringContaining(`read ${SKILL_FILE} with Read`),
      }),
    ]);
    expect(byCase['explain-index']).toEqual([
      expect.objectContaining({
        type: 'not-skill-used',
        pass: true,
        reason: 'the agent did not use the skill "schema-migrations"',
      }),
    ]);
    expect(byCase['backup']).toEqual([
      expect.objectContaining({
        type: 'not-skill-used',
        pass: false,
        reason: expect.stringContaining('expected the opposite'),
      }),
    ]);
    // The share of cases judged right is the score.
    expect(summary.splits.all.total).toBe(0.75);
    // Claude Code offered the skill by its description, and the Skill call loaded its body.
    const skillCall = server.log.find((entry) =>
      JSON.stringify(entry.body).includes('"tool_use_id":"skill_0"'),
    );
    expect(JSON.stringify(skillCall?.body)).toContain('Write each change as a new file under migrations/.');
  }, 180_000);
});
