#!/usr/bin/env node
/**
 * 6. Start-up: cold starts of the read commands `autoresearch --help`, `runs` and `show <run>`
 * (each a new process), median wall and CPU time, measured interleaved with a bare `node -e 0`
 * so the part that is Node's own start is visible. Target: each <= 500 ms.
 */
import { runBenchmark } from './lib/harness.mjs';
import { expectExit, latestRunDir, runCli } from './lib/cli.mjs';
import { runMeasured } from './lib/measure-process.mjs';
import { CLI } from './lib/paths.mjs';
import { createProject, SIM_MODELS } from './lib/project.mjs';
import { markdownTable, textTable } from './lib/table.mjs';
import { median, min, ms, verdict } from './lib/stats.mjs';

const TARGET_MS = 500;

await runBenchmark(
  { key: 'startup', script: 'bench/startup.mjs', title: '6. Start-up' },
  async ({ smoke }) => {
    const runs = smoke ? 2 : 15;
    const project = createProject({ cases: 4, models: SIM_MODELS, budget: { iterations: 3 } });
    try {
      expectExit(
        await runCli(['run', 'bench', '--iterations', '3'], { cwd: project.dir }),
        [0],
        'the run `show` reads',
      );
      const runId = latestRunDir(project.dir).split('/').at(-1);
      const commands = [
        { label: 'node -e 0 (bare Node, for reference)', argv: [process.execPath, '-e', '0'], target: false },
        { label: 'autoresearch --help', argv: [process.execPath, CLI, '--help'], target: true },
        { label: 'autoresearch runs', argv: [process.execPath, CLI, 'runs'], target: true },
        { label: 'autoresearch show <run>', argv: [process.execPath, CLI, 'show', runId], target: true },
      ];
      const samples = commands.map(() => ({ wall: [], cpu: [] }));
      for (let i = 0; i < runs; i += 1) {
        for (const [k, command] of commands.entries()) {
          const result = await runMeasured(command.argv, { cwd: project.dir, sampleMs: 1000 });
          if (result.code !== 0) throw new Error(`${command.label} exited ${result.code}: ${result.stderr}`);
          samples[k].wall.push(result.wallMs);
          samples[k].cpu.push(result.cpuMs);
        }
      }
      const nodeMedian = median(samples[0].wall);
      const rows = commands.map((command, k) => {
        const wall = median(samples[k].wall);
        return {
          command,
          wall,
          best: min(samples[k].wall),
          cpu: median(samples[k].cpu),
          above: k === 0 ? NaN : wall - nodeMedian,
          met: wall <= TARGET_MS,
        };
      });
      const header = ['command', 'median wall', 'fastest', 'median CPU', 'above bare Node', 'target'];
      const cells = (code) =>
        rows.map((r) => [
          code
            ? `\`${r.command.label.replace(/ \(.*\)$/, '')}\`${r.command.target ? '' : ' (bare Node, for reference)'}`
            : r.command.label,
          ms(r.wall),
          ms(r.best),
          ms(r.cpu),
          r.command.target ? ms(r.above) : '',
          r.command.target ? `<= ${TARGET_MS} ms: ${verdict(r.met)}` : '',
        ]);
      const targeted = rows.filter((r) => r.command.target);
      const missed = targeted.filter((r) => !r.met);
      const findings = [];
      if (missed.length > 0) {
        const ownShare = Math.max(...targeted.map((r) => r.above));
        findings.push(
          `Missed: ${missed.map((r) => `\`${r.command.label}\` ${ms(r.wall)}`).join(', ')}. ` +
            `Bare Node alone takes ${ms(nodeMedian)} on this machine at this load, so the tool's own ` +
            `share (loading and running its modules) is at most ${ms(ownShare)}; the rest is Node's start.`,
        );
      } else {
        findings.push('Every read command starts within the target.');
      }
      const markdown = [
        `Each command is started ${runs} times as a new process, interleaved with a bare \`node -e 0\`; ` +
          'wall time from spawn to exit, CPU time (user + system) from GNU time. ' +
          "dist/ is tsc's plain output (not bundled); the command tree imports no command's work, " +
          "and each command's module is imported when it runs.",
        '',
        markdownTable(header, cells(true)),
        '',
        ...findings,
      ].join('\n');
      return { text: textTable(header, cells(false)), markdown };
    } finally {
      project.remove();
    }
  },
);
