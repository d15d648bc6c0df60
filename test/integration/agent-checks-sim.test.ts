/**
 * The checks on an agent's files and actions end to end under --provider sim (docs/design/checks.md
 * "Checks on an agent's files and actions"): a two-case agent experiment run by `eval` with the
 * built CLI, using each new kind — `file-exists`, `file:` on text and parse checks, a `command` in
 * a copy of the finished workspace (exit code and a JSON verdict), `tool-call` over the agent's
 * calls, `turn-count`, `end-reason`, `tool-error-count`. Each outcome is compared with what the
 * case's record says the agent did. The same keys in a text experiment fail `validate` (exit 2).
 * Needs `npm run build` first.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCaseRecord } from '../../src/agent/agent-record.js';
import { ChecksFile } from '../../src/checks/check-result.js';
import { cleanEnv, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const EXPERIMENT = `name: notes-checks
prompt: SKILL.md
cases: cases.yaml
agent:
  place: skill
  name: release-notes
  task: "Write the release notes for version {{version}} from the notes in notes/."
  max_turns: 10
models:
  generator: { provider: claude-cli, model: sonnet }
checks:
  - { type: file-exists, value: RELEASE_NOTES.md, name: wrote-notes }
  - { type: not-file-exists, value: notes/draft.md, name: no-draft }
  - { type: word-count, min: 1, file: RELEASE_NOTES.md, name: notes-have-words }
  - { type: word-count, min: 1, file: "notes/*.md", name: notes-not-empty }
  - { type: is-json, file: meta.json, name: meta-parses }
  - { type: command, value: [test, -f, RELEASE_NOTES.md], in: workspace, name: test-f }
  - { type: command, value: [node, checks/lines.mjs], in: workspace, name: lines }
  - { type: tool-call, value: Read, arguments: { file_path: notes/fixed.md }, name: read-fixed }
  - { type: not-tool-call, value: Bash, name: no-bash }
  - { type: turn-count, max: 10 }
  - { type: end-reason, value: done }
  - { type: tool-error-count, max: 0 }
  - { type: turn-count, max: 1, name: one-turn }
scoring:
  weights: { checks: 1, judge: 0, expectations: 0 }
search: { holdout: 0 }
`;

// Writes into its copy of the workspace: the next command and the record never see it.
const LINES = `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
writeFileSync('scratch.txt', 'mine');
const text = existsSync('RELEASE_NOTES.md') ? readFileSync('RELEASE_NOTES.md', 'utf8') : '';
const lines = text.split('\\n').filter(Boolean).length;
console.log(JSON.stringify({ pass: lines > 0, score: lines > 0 ? 1 : 0, reason: lines + ' lines in ' + process.cwd() }));
`;

let repo: TempRepo;

beforeAll(async () => {
  requireBuiltCli();
  const notes = {
    'notes/fixed.md': '# Fixed\n- The crash when saving.\n',
    'meta.json': '{"product":"demo"}\n',
  };
  repo = await createTempRepo({
    files: {
      'experiments/notes-checks/experiment.yaml': EXPERIMENT,
      'experiments/notes-checks/SKILL.md':
        '---\nname: release-notes\ndescription: Release notes from notes.\n---\n\nYou must always write the release notes to RELEASE_NOTES.md.\n',
      'experiments/notes-checks/cases.yaml':
        '- { id: a, vars: { version: "1.2.0" }, fixtures: cases/a }\n- { id: b, vars: { version: "1.3.0" }, fixtures: cases/b }\n',
      'experiments/notes-checks/checks/lines.mjs': LINES,
      ...Object.fromEntries(
        Object.entries(notes).map(([path, text]) => [`experiments/notes-checks/cases/a/${path}`, text]),
      ),
      ...Object.fromEntries(
        Object.entries(notes).map(([path, text]) => [`experiments/notes-checks/cases/b/${path}`, text]),
      ),
      'experiments/text-only/experiment.yaml':
        'name: text-only\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: anthropic, model: claude-sonnet-4-5 }\nchecks:\n  - { type: contains, value: x, file: RELEASE_NOTES.md }\n  - { type: turn-count, max: 3 }\n',
      'experiments/text-only/prompt.md': 'Say {{x}}.\n',
      'experiments/text-only/cases.yaml': '- { id: one, vars: { x: hi } }\n',
    },
    config: { 'user.name': 'Test', 'user.email': 'test@example.com' },
  });
});
afterAll(async () => {
  await repo?.cleanup();
});

describe('an agent experiment’s checks on files and actions', () => {
  it('judge what each case’s agent did, as its record shows', async () => {
    const result = await runBuiltCli(['eval', 'notes-checks', '--provider', 'sim'], {
      cwd: repo.dir,
      env: cleanEnv(repo.env),
    });
    expect(result.code, result.stderr).toBeLessThan(2);
    const [runId = ''] = runFolders(repo.path('runs'));
    const candidate = repo.path(`runs/${runId}/iterations/0000/candidates/0`);
    const checks = ChecksFile.parse(JSON.parse(await readFile(join(candidate, 'checks.json'), 'utf8')));
    expect(checks.results).toHaveLength(2);
    for (const sample of checks.results) {
      const dir = join(candidate, 'agent', `${sample.caseId}.0`);
      const record = AgentCaseRecord.parse(JSON.parse(await readFile(join(dir, 'agent.json'), 'utf8')));
      const wrote = record.files.some((f) => f.path === 'RELEASE_NOTES.md' && f.status === 'created');
      const by = Object.fromEntries(sample.outcomes.map((o) => [o.name, o]));
      expect(by['wrote-notes']?.pass, sample.caseId).toBe(wrote);
      expect(by['no-draft']?.pass).toBe(true);
      expect(by['notes-have-words']?.pass).toBe(wrote);
      if (!wrote)
        expect(by['notes-have-words']?.reason).toBe(
          'RELEASE_NOTES.md does not exist in the workspace the agent left',
        );
      expect(by['notes-not-empty']).toMatchObject({
        pass: true,
        reason: 'all 1 files matching "notes/*.md" pass',
      });
      expect(by['meta-parses']).toMatchObject({ pass: true, reason: 'meta.json: output is valid JSON' });
      expect(by['test-f']?.pass).toBe(wrote);
      expect(by['lines']?.pass).toBe(wrote);
      expect(by['lines']?.reason).toMatch(/^\d+ lines in \//);
      expect(by['read-fixed']).toMatchObject({ pass: true });
      expect(by['no-bash']).toMatchObject({ pass: true });
      expect(by['turn-count: <= 10']).toMatchObject({
        pass: true,
        reason: `${record.turns} turns, within <= 10`,
      });
      expect(by['end-reason: done']).toMatchObject({ pass: true });
      expect(by['tool-error-count: <= 0']).toMatchObject({ pass: true });
      // The commands' results are in the record; their scratch file is in no capture.
      expect(record.workspaceChecks?.map((c) => c.name)).toEqual(['test-f', 'lines']);
      expect(record.files.map((f) => f.path)).not.toContain('scratch.txt');
      const calls = JSON.parse(await readFile(join(dir, 'tool-calls.json'), 'utf8')) as {
        calls: { name: string }[];
      };
      expect(calls.calls.map((c) => c.name)).toContain('Read');
    }
    // show names the new checks as it names the others, with their reasons.
    const show = await runBuiltCli(['show', runId, '0'], { cwd: repo.dir, env: cleanEnv(repo.env) });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/✗ one-turn: \d+ turns, above the maximum 1/);
    // The simulated agent obeys a firm rule most of the time: at least one case wrote the file.
    expect(checks.results.some((s) => s.outcomes.find((o) => o.name === 'wrote-notes')?.pass)).toBe(true);
  });

  it('are refused in a text experiment, naming the file and key', async () => {
    const result = await runBuiltCli(['validate', 'text-only'], { cwd: repo.dir, env: cleanEnv(repo.env) });
    expect(result.code).toBe(2);
    expect(result.stderr + result.stdout).toMatch(/checks\[0\]\.file/);
    expect(result.stderr + result.stdout).toMatch(/checks\[1\]\.type/);
    expect(result.stderr + result.stdout).toMatch(/only in an experiment with an `agent:` block/);
  });
});
