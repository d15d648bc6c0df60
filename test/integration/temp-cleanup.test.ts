/**
 * A runner killed outright (SIGKILL) cannot remove its temporary folder — when it dies during
 * judging, that holds the judge's sandbox with the outputs. The next runner removes it
 * (needs `npm run build`). A write cut off by the kill leaves its temporary file in the run
 * folder; resume removes it, and leaves one whose writer still runs.
 */
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';

let work = '';
beforeAll(async () => {
  requireBuiltCli();
  work = await mkdtemp(join(tmpdir(), 'ar-temp-cleanup-'));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function ours(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith('autoresearch-tmp-'));
}

describe('temporary folders after a crash', () => {
  it('the next runner removes what a killed one left behind', async () => {
    const project = join(work, 'project');
    const temp = join(work, 'tmp');
    await mkdir(temp);
    await cp(join(REPO_ROOT, 'experiments'), join(project, 'experiments'), { recursive: true });
    await cp(join(REPO_ROOT, 'rubrics'), join(project, 'rubrics'), { recursive: true });
    const env = cleanEnv({ TMPDIR: temp });

    // Killed once the baseline is done (its judges used the folder), as iteration 1 begins.
    const killed = await runBuiltCli(['run', 'cold-email', '--provider', 'sim', '--iterations', '1'], {
      cwd: project,
      env: { ...env, AUTORESEARCH_TEST_KILL_AT: 'mutating:1' },
    });
    expect(killed.code).toBeUndefined();
    const left = await ours(temp);
    expect(left).toHaveLength(1);
    const leftFolder = join(temp, String(left[0]));
    expect(await readdir(leftFolder)).toContain('owner.json');
    // What a kill during judging leaves in it: the judge's sandbox, with the outputs.
    await mkdir(join(leftFolder, 'ws-planted', 'outputs'), { recursive: true });
    await writeFile(join(leftFolder, 'ws-planted', 'outputs', 'output_00.txt'), 'an output');

    const [runId] = runFolders(join(project, 'runs'));
    const runDir = join(project, 'runs', String(runId));
    const exited = execa(process.execPath, ['-e', '0']);
    const gone = exited.pid as number;
    await exited;
    const cutOff = join(runDir, 'iterations', '0000', 'candidates', '0', `prompt.md.${gone}.7.tmp`);
    const live = join(runDir, `report.html.${process.pid}.1.tmp`);
    await writeFile(cutOff, 'half a prom');
    await writeFile(live, 'being written');

    const resumed = await runBuiltCli(['resume', String(runId)], { cwd: project, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    // Its own folder went when it exited; the dead runner's went when it made its first sandbox.
    expect(await ours(temp)).toEqual([]);
    const litter = (await readdir(runDir, { recursive: true })).filter((name) => name.endsWith('.tmp'));
    expect(litter).toEqual([`report.html.${process.pid}.1.tmp`]);
  }, 120_000);
});
