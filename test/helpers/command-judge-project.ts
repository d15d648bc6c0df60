/**
 * A project made by the built CLI's `init my-prompt`, with the sim generator and a judge program
 * as `models.judge.command`, under `process` isolation so a host path the program is given stays
 * the same path inside. Needs `npm run build` first.
 *
 *   await projectWithJudge(dir, [process.execPath, 'test/fixtures/judges/fault-judge.mjs', 'valid']);
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cleanEnv, requireBuiltCli, runBuiltCli } from './built-cli.js';

export async function projectWithJudge(project: string, command: readonly string[]): Promise<void> {
  requireBuiltCli();
  const init = await runBuiltCli(['init', 'my-prompt'], { cwd: project, env: cleanEnv() });
  expect(init.code, init.stderr).toBe(0);
  const argv = command.map((arg) => JSON.stringify(arg)).join(', ');
  const file = join(project, 'experiments/my-prompt/experiment.yaml');
  const yaml = (await readFile(file, 'utf8'))
    .replace(/^ {2}generator: .*$/m, '  generator: { provider: sim }')
    .replace(/^ {2}# judge: \{ command: .*$/m, `  judge: { command: [${argv}], timeout_s: 30 }`)
    .concat('\njudging: { isolation: process }\n');
  await writeFile(file, yaml);
}
