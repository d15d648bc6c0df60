/**
 * Regression: `apply` wrote through a symlinked prompt to a file outside the repository. It
 * refuses unless --force, naming the real path; with --force it writes the file the link names.
 */
import { mkdtemp, readFile, readlink, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliCopy, describeResult, runCli, snapshotCli } from '../kill/support/cli.js';
import { createProject, FIXTURE, type Project } from '../kill/support/project.js';

let cli: CliCopy;
let project: Project;
let elsewhere: string;
let run: { id: string; dir: string };

beforeAll(async () => {
  cli = await snapshotCli();
  project = await createProject();
  elsewhere = await realpath(await mkdtemp(join(tmpdir(), 'ar-apply-elsewhere-')));
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
  if (elsewhere) await rm(elsewhere, { recursive: true, force: true });
});

describe('apply through a symlinked prompt', () => {
  it('refuses to write through a symlink that leaves the repository unless --force, naming the real path', async () => {
    const prompt = join(project.dir, project.promptPath);
    const original = await readFile(prompt, 'utf8');
    // The same text elsewhere, so only the link (not an edit) stands in the way.
    const outside = join(elsewhere, 'prompt.md');
    await writeFile(outside, original);
    await unlink(prompt);
    await symlink(outside, prompt);

    const refused = await runCli(cli.main, ['apply', run.id], { cwd: project.dir, env: project.env });
    expect(refused.exitCode, describeResult(refused)).toBe(2);
    expect(refused.stderr).toContain(
      `is a symlink to ${outside}, outside the repository; not writing through it`,
    );
    expect(refused.stderr).toMatch(/--force/);
    expect(await readFile(outside, 'utf8')).toBe(original);

    const forced = await runCli(cli.main, ['apply', run.id, '--force'], {
      cwd: project.dir,
      env: project.env,
    });
    expect(forced.exitCode, describeResult(forced)).toBe(0);
    expect(await readlink(prompt)).toBe(outside);
    expect(await readFile(outside, 'utf8')).toBe(await readFile(join(run.dir, 'best.md'), 'utf8'));
  });
});
