/**
 * `resume` of a run whose experiment changed (docs/design/run-records.md,
 * docs/design/commands-and-exit-codes.md), through the built CLI: a changed rubric, cases, checks
 * or model is refused with exit 2, a message naming exactly what changed and how to go on — and not
 * one byte of the run folder or the repository changes. Then the ways on: `--iterations +2` extends
 * the budget and continues the numbering; `--rebaseline` scores the best prompt again under the new
 * setup as a new baseline after the old iterations, whose history stays; an `eval` record is not
 * resumable.
 *
 * The steps share one run and go in order.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { type CliCopy, describeResult, runCli, snapshotCli } from '../kill/support/cli.js';
import { checkFinishedRun, readRunRecord } from '../kill/support/invariants.js';
import { createProject, FIXTURE, type Project, snapshotProject } from '../kill/support/project.js';

const EXPERIMENT = `experiments/${FIXTURE}`;

let cli: CliCopy;
let project: Project;
let run: { id: string; dir: string };

beforeAll(async () => {
  cli = await snapshotCli();
  project = await createProject();
  const result = await runCli(cli.main, ['run', FIXTURE, '--provider', 'sim', '--iterations', '1'], {
    cwd: project.dir,
    env: project.env,
  });
  expect(result.exitCode, describeResult(result)).toBe(0);
  run = await project.onlyRun();
}, 180_000);

afterAll(async () => {
  await project?.cleanup();
  await cli?.cleanup();
});

const resume = (...args: string[]) =>
  runCli(cli.main, ['resume', run.id, ...args], { cwd: project.dir, env: project.env });

function editYaml(text: string, change: (doc: Record<string, unknown>) => void): string {
  const doc = parse(text) as Record<string, unknown>;
  change(doc);
  return stringify(doc);
}

const RUBRIC_CRITERION = `
### Brevity

What it measures: does it say it in as few words as it can?

| Score | Meaning | Example |
|---|---|---|
| 1 | Rambles | Three paragraphs for one toggle |
| 5 | One tight paragraph | "Dark mode is here: Settings → Theme." |
`;

const CHANGES: readonly { what: string; file: string; edit: (text: string) => string; says: RegExp }[] = [
  {
    what: 'a rubric criterion added',
    file: 'rubric.md',
    edit: (text) => `${text}${RUBRIC_CRITERION}`,
    says: /the rubric changed \(criteria added: brevity\)/,
  },
  {
    what: 'the rubric wording',
    file: 'rubric.md',
    edit: (text) => text.replace('Hype or jargon', 'Hype, jargon or exclamation marks'),
    says: /the rubric text changed/,
  },
  {
    what: 'a case edited and one added',
    file: 'cases.yaml',
    edit: (text) =>
      `${text.replace('ten times faster', 'twenty times faster')}- id: api-keys\n  vars: { product: Tabula, change: "Scoped API keys" }\n`,
    says: /cases changed: added api-keys; changed csv-export/,
  },
  {
    what: 'the generator model',
    file: 'experiment.yaml',
    edit: (text) =>
      editYaml(text, (doc) => {
        const models = doc['models'] as Record<string, Record<string, unknown>>;
        (models['generator'] as Record<string, unknown>)['model'] = 'claude-haiku-4-5';
      }),
    says: /models changed: models\.generator\.model: "claude-sonnet-4-5" -> "claude-haiku-4-5"/,
  },
  {
    what: 'a global check',
    file: 'experiment.yaml',
    edit: (text) => text.replace('max: 90', 'max: 60'),
    says: /global checks changed: #1 short-enough changed/,
  },
];

describe('resume after the experiment changed', () => {
  it.each(CHANGES)(
    'refuses $what: exit 2, says what changed, modifies nothing',
    async ({ file, edit, says }) => {
      const path = `${EXPERIMENT}/${file}`;
      const original = await project.repo.read(path);
      await project.repo.write(path, edit(original));
      try {
        const before = await snapshotProject(project);
        const result = await resume();
        expect(result.exitCode, describeResult(result)).toBe(2);
        expect(result.stderr).toMatch(/the experiment changed since run .* started/);
        expect(result.stderr).toMatch(says);
        // How to proceed: undo it, or --rebaseline, or a new run.
        expect(result.stderr).toMatch(/Undo the change/);
        expect(result.stderr).toContain('--rebaseline');
        expect(await snapshotProject(project)).toEqual(before);
      } finally {
        await project.repo.write(path, original);
      }
    },
  );

  it('resume of a finished run with no new budget says so and spends nothing', async () => {
    const journal = join(run.dir, 'events.jsonl');
    const before = await readFile(journal, 'utf8');
    for (const args of [[], ['--iterations', '1']]) {
      const result = await resume(...args);
      expect(result.exitCode, describeResult(result)).toBe(0);
      expect(result.stderr).toMatch(
        /already finished \(1 of 1 iterations done\); there is nothing to resume and nothing was spent/,
      );
      expect(result.stderr).toContain(`resume ${run.id} --iterations +2`);
      expect(result.stderr).not.toMatch(/resuming/);
    }
    expect(await readFile(journal, 'utf8')).toBe(before);
  });

  it('extends the budget with --iterations +2 and continues the numbering', async () => {
    const before = (await readRunRecord(run.dir)).state;
    expect(before.iterations.map((it) => it.iteration)).toEqual([0, 1]);
    // Where bubblewrap does not work, the resumed session says again that its judge has process isolation only.
    const stubs = join(project.dir, '.stub-bin');
    await mkdir(stubs);
    await writeFile(join(stubs, 'bwrap'), '#!/bin/sh\necho "bwrap: no namespaces here" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const result = await runCli(cli.main, ['resume', run.id, '--iterations', '+2'], {
      cwd: project.dir,
      env: { ...project.env, PATH: `${stubs}:${project.env['PATH'] ?? process.env['PATH']}` },
    });
    expect(result.exitCode, describeResult(result)).toBe(0);
    expect(result.stderr).toMatch(/warning: the judge and grader run with process isolation only/);
    const { state, events } = await readRunRecord(run.dir);
    expect(state.iterations.map((it) => it.iteration)).toEqual([0, 1, 2, 3]);
    expect(state.iterations.slice(0, 2)).toEqual(before.iterations);
    expect(state.completedIterations).toBe(3);
    expect(state.stop?.reason).toBe('iterations');
    expect(events.findLast((e) => e.type === 'run_resumed')).toMatchObject({ overrides: { iterations: 3 } });
    expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);
  });

  it('--rebaseline scores the best prompt as a new baseline after the old iterations, then resumes plainly', async () => {
    const path = `${EXPERIMENT}/rubric.md`;
    await project.repo.write(path, `${await project.repo.read(path)}${RUBRIC_CRITERION}`);
    const before = await readRunRecord(run.dir);
    const result = await resume('--rebaseline');
    expect(result.exitCode, describeResult(result)).toBe(0);
    const { state } = await readRunRecord(run.dir);
    expect(state.iterations.slice(0, 4)).toEqual(before.state.iterations);
    expect(state.iterations.map((it) => [it.iteration, it.status])).toEqual([
      ...before.state.iterations.map((it) => [it.iteration, it.status]),
      [4, 'baseline'],
    ]);
    expect(state.baseline?.iteration).toBe(4);
    // The new baseline is the best prompt so far, scored under the new rubric.
    expect(state.iterations[4]?.promptSha256).toBe(before.state.incumbent?.promptSha256);
    expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);

    // The run now belongs to the new setup: a plain resume is not refused again.
    const again = await resume('--iterations', '+1');
    expect(again.exitCode, describeResult(again)).toBe(0);
    const after = (await readRunRecord(run.dir)).state;
    expect(after.iterations.map((it) => it.iteration)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(after.baseline?.iteration).toBe(4);
  });

  it('refuses to resume an eval record', async () => {
    const evaluated = await runCli(cli.main, ['eval', FIXTURE, '--provider', 'sim'], {
      cwd: project.dir,
      env: project.env,
    });
    expect(evaluated.exitCode, describeResult(evaluated)).toBe(0);
    const evalId = (await readdir(project.runsDir)).find((id) => id !== run.id && id !== '.gitignore');
    expect(evalId).toBeDefined();
    const before = await snapshotProject(project);
    const result = await runCli(cli.main, ['resume', evalId as string], {
      cwd: project.dir,
      env: project.env,
    });
    expect(result.exitCode, describeResult(result)).toBe(2);
    expect(result.stderr).toMatch(/is an evaluation, not an optimization run/);
    expect(await snapshotProject(project)).toEqual(before);
  });
});
