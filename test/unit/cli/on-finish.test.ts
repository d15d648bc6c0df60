import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finishSummary, runOnFinish } from '../../../src/cli/on-finish.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { JournalBuilder } from '../../fixtures/runs/journal-builder.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('on-finish-');

const state = reduceRun(
  new JournalBuilder()
    .start({ runId: 'r1', experiment: 'cold-email' })
    .baseline([0.6, 0.62, 0.64])
    .iteration(1, { status: 'keep', train: 0.7 })
    .stop('iterations').events,
);
const summary = finishSummary(state, { runId: 'r1', reportPath: '/runs/r1/report.html' });

describe('finishSummary', () => {
  it('holds the fields of docs/design/cost-engine.md', () => {
    expect(Object.keys(summary)).toEqual([
      'run_id',
      'experiment',
      'status',
      'stop_reason',
      'baseline',
      'best',
      'test',
      'iterations',
      'cost_usd',
      'branch',
      'report',
    ]);
    expect(summary).toMatchObject({
      run_id: 'r1',
      experiment: 'cold-email',
      status: 'finished',
      stop_reason: 'iterations',
      best: { iteration: 1, train: 0.7 },
      test: null,
      iterations: 1,
      report: '/runs/r1/report.html',
    });
    expect(summary.baseline?.train).toBeCloseTo(0.62, 10);
    expect(summary.cost_usd).toBeCloseTo(state.spend.usd, 10);
  });
});

describe('runOnFinish', () => {
  const env = { PATH: process.env['PATH'] ?? '' };

  it('gives the program the summary on stdin, from the experiment folder', async () => {
    const dir = tmp();
    await writeFile(
      join(dir, 'notify.mjs'),
      "import { writeFileSync } from 'node:fs';\nlet s = '';\nprocess.stdin.on('data', (d) => { s += d; });\nprocess.stdin.on('end', () => writeFileSync('got.json', s));\n",
    );
    const warning = await runOnFinish([process.execPath, './notify.mjs'], summary, { cwd: dir, env });
    expect(warning).toBeNull();
    expect(JSON.parse(await readFile(join(dir, 'got.json'), 'utf8'))).toEqual(summary);
  });

  it('describes a failure as a warning: a non-zero exit, a program not found, a timeout', async () => {
    const dir = tmp();
    const fails = [process.execPath, '-e', 'console.error("webhook said 500"); process.exit(3)'];
    expect(await runOnFinish(fails, summary, { cwd: dir, env })).toBe(
      `on_finish: \`${process.execPath}\` exited with 3: webhook said 500`,
    );
    expect(await runOnFinish(['no-such-notifier-xyz'], summary, { cwd: dir, env })).toMatch(
      /^on_finish: `no-such-notifier-xyz` could not be started \(ENOENT\)$/,
    );
    const hangs = [process.execPath, '-e', 'setTimeout(() => {}, 60_000)'];
    expect(await runOnFinish(hangs, summary, { cwd: dir, env, timeoutMs: 300 })).toBe(
      `on_finish: \`${process.execPath}\` was stopped after 0.3 s`,
    );
  });
});
