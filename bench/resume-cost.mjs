#!/usr/bin/env node
/**
 * 4. Resume cost: a run against the fake LLM server is SIGKILLed mid-way (the test-only hook
 * AUTORESEARCH_TEST_KILL_AT="<point>:<n>" makes it kill itself at a chosen phase), then
 * resumed, at several points. An uninterrupted run of the same experiment says how many
 * requests the work takes; everything else is repeated work:
 *
 *   redone = (calls completed before the kill) + (requests after the resume) − (reference requests)
 *
 * A call counts as completed once its response is in the run's cache (docs/design/run-records.md).
 * Requests that were in flight when the process died are lost work, redone legitimately, and shown
 * apart. Target: 0 redone.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, expectExit, FAKE_KEY_ENV, latestRunDir, readEvents, runCli } from './lib/cli.mjs';
import { startFakeLlmServer } from '../test/helpers/fake-llm-server.js';
import { runBenchmark } from './lib/harness.mjs';
import { createSimResponder } from './lib/sim-responder.mjs';
import { createProject, fakeServerModels } from './lib/project.mjs';
import { markdownTable, textTable } from './lib/table.mjs';
import { verdict } from './lib/stats.mjs';

/** Completed calls: one cache file per finished call, under cache/<2 hex>/. */
function cachedCalls(runDir) {
  const cache = join(runDir, 'cache');
  let count = 0;
  try {
    for (const shard of readdirSync(cache)) {
      count += readdirSync(join(cache, shard)).filter((name) => name.endsWith('.json')).length;
    }
  } catch {
    return 0;
  }
  return count;
}

/** What a finished run decided: each iteration's last outcome (a redo replaces an interrupted one), and the final check. */
function outcome(runDir) {
  const decided = new Map();
  let final = '';
  for (const event of readEvents(runDir)) {
    if (event.type === 'iteration_finished') decided.set(event.iteration, `${event.status} ${event.train}`);
    if (event.type === 'final_evaluation') final = JSON.stringify([event.baseline, event.best]);
  }
  return `${JSON.stringify([...decided])} ${final}`;
}

await runBenchmark(
  { key: 'resume', script: 'bench/resume-cost.mjs', title: '4. Resume cost' },
  async ({ smoke }) => {
    const server = await startFakeLlmServer({ latencyMs: 10, respond: await createSimResponder() });
    const options = {
      cases: smoke ? 4 : 8,
      rubric: true,
      models: fakeServerModels(server.anthropicBaseUrl),
      budget: { iterations: smoke ? 1 : 3, patience: 10 },
      search: { noise_repeats: 2 },
      concurrency: 4,
      git: true,
    };
    const points = smoke
      ? [{ point: 'judging:1', what: 'as the first judge starts' }]
      : [
          { point: 'generated:5', what: 'mid-generation of the baseline' },
          { point: 'judging:3', what: 'iteration 1: outputs generated, judge starting' },
          { point: 'decided:2', what: 'iteration 2 decided, not yet journaled' },
          { point: 'committing:1', what: 'a keep about to be committed' },
          { point: 'final:1', what: 'the final check starting' },
        ];
    const env = cleanEnv(FAKE_KEY_ENV);
    const trials = [];
    const reference = createProject(options);
    try {
      server.reset();
      expectExit(await runCli(['run', 'bench'], { cwd: reference.dir, env }), [0], 'the reference run');
      const referenceRequests = server.log.length;
      const referenceRun = latestRunDir(reference.dir);
      const referenceOutcome = outcome(referenceRun);
      const referenceCached = cachedCalls(referenceRun);

      for (const { point, what } of points) {
        const project = createProject(options);
        try {
          server.reset();
          const killed = await runCli(['run', 'bench'], {
            cwd: project.dir,
            env: { ...env, AUTORESEARCH_TEST_KILL_AT: point },
          });
          if (killed.signal !== 'SIGKILL') {
            trials.push({ point, what, reached: false });
            continue;
          }
          const runDir = latestRunDir(project.dir);
          const beforeRequests = server.log.length;
          const completed = cachedCalls(runDir);
          const runId = runDir.split('/').at(-1);
          expectExit(
            await runCli(['resume', runId], { cwd: project.dir, env }),
            [0],
            `resume after ${point}`,
          );
          const afterRequests = server.log.length - beforeRequests;
          trials.push({
            point,
            what,
            reached: true,
            beforeRequests,
            completed,
            inFlight: beforeRequests - completed,
            afterRequests,
            redone: completed + afterRequests - referenceRequests,
            sameOutcome: outcome(runDir) === referenceOutcome,
          });
        } finally {
          project.remove();
        }
      }
      const header = [
        'killed at',
        'requests before kill',
        'of which completed',
        'lost in flight',
        'requests after resume',
        'redone',
        'same result as uninterrupted',
        'target 0',
      ];
      const rows = trials.map((t) =>
        t.reached
          ? [
              `${t.point} (${t.what})`,
              t.beforeRequests,
              t.completed,
              t.inFlight,
              t.afterRequests,
              t.redone,
              t.sameOutcome ? 'yes' : 'NO',
              verdict(t.redone === 0),
            ]
          : [`${t.point} (${t.what})`, 'not reached: the run finished first', '', '', '', '', '', ''],
      );
      const reached = trials.filter((t) => t.reached);
      const findings = [
        `The uninterrupted run made ${referenceRequests} requests and cached ${referenceCached} responses.`,
      ];
      const bad = reached.filter((t) => t.redone !== 0 || !t.sameOutcome);
      if (bad.length > 0) {
        findings.push(
          `Missed at ${bad.map((t) => t.point).join(', ')}: finished work was requested again, or the resumed ` +
            'run decided differently from the uninterrupted one.',
        );
      } else if (reached.length > 0) {
        findings.push(
          'No finished work was requested again, and every resumed run ended exactly as the uninterrupted one.',
        );
      }
      const markdown = [
        `A \`run\` of ${options.budget.iterations} iterations on ${options.cases} cases (judge on, ` +
          `${options.search.noise_repeats} baseline repeats, concurrency ${options.concurrency}) against the fake ` +
          'server at 10 ms per call, in a git repository, killed with SIGKILL at each point below (the ' +
          'test-only hook `AUTORESEARCH_TEST_KILL_AT`), then `resume`d. Redone = completed before the kill + ' +
          'requests after the resume − requests of an uninterrupted run; a call is completed when its response ' +
          "is in the run's cache, and calls lost in flight are shown apart (they must be made again).",
        '',
        markdownTable(header, rows),
        '',
        ...findings,
      ].join('\n');
      return { text: textTable(header, rows), markdown };
    } finally {
      reference.remove();
      await server.close();
    }
  },
);
