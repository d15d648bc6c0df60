#!/usr/bin/env node
/**
 * 9. Cost: what one overnight run costs three ways, as a user runs it —
 * `autoresearch run bench` against the fake LLM server over the Anthropic wire format with
 * claude-sonnet-4-5, so dollars come from the built-in price table (batch discount and cache
 * rates included):
 *
 *   interactive      no --batch; the fake's prompt cache off (a provider reporting no cache usage),
 *   batch            --batch; prompt cache off,
 *   batch+caching    --batch; the fake's prompt cache on (Anthropic's rules: marked prefixes
 *                    above the model's minimum, written then read).
 *
 * Same project, seeds and fake replies for the three; their decisions (status and train score
 * per iteration) must be identical, else the comparison is NOT COMPARABLE. Then a run with
 * --batch is SIGKILLed right after its first batch is journaled (the test-only hook
 * AUTORESEARCH_TEST_KILL_AT) and resumed: the batches the fake server sees created again for
 * the pending batch's requests are counted (target 0).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { startFakeLlmServer } from '../test/helpers/fake-llm-server.js';
import { cleanEnv, expectExit, FAKE_KEY_ENV, latestRunDir, readEvents, runCli } from './lib/cli.mjs';
import { runBenchmark } from './lib/harness.mjs';
import { createProject, fakeServerModels } from './lib/project.mjs';
import { createSimResponder } from './lib/sim-responder.mjs';
import { pct, verdict } from './lib/stats.mjs';
import { markdownTable, textTable } from './lib/table.mjs';

/** The target: batch+caching costs at most this share of interactive. */
const TARGET_SHARE = 0.45;
/**
 * The fake's batch completion delay (each batch ends this long after it was created) and the
 * run's poll interval. A smoke run waits on every batch for nothing its figures need, so less.
 */
const TIMING = { completeAfterMs: 1000, pollMs: 100 };
const SMOKE_TIMING = { completeAfterMs: 100, pollMs: 20 };
const CASES = 8;
const ROLES = ['generator', 'judge', 'grader', 'mutator'];

/** A fixed preamble long enough (with the rubric) to pass Anthropic's 1,024-token caching minimum. */
const STYLE_GUIDE = Array.from(
  { length: 24 },
  (_, i) =>
    `Style rule ${i + 1}: keep every sentence concrete and specific to the reader's situation; ` +
    'name one measurable outcome, avoid jargon and filler, and never promise what the product cannot do.',
).join('\n');
const PROMPT = `${STYLE_GUIDE}\n\nWrite a short cold email about {{topic}} for {{audience}}.\n`;
const RUBRIC_NOTES = Array.from(
  { length: 24 },
  (_, i) =>
    `Calibration note ${i + 1}: judge the email as its recipient would on a busy morning; ` +
    'a score of 5 needs a specific hook, a clear ask and no wasted words; vague claims cap it at 3.',
).join('\n');

const MODES = [
  { key: 'interactive', batch: false, cache: false },
  { key: 'batch', batch: true, cache: false },
  { key: 'batch+caching', batch: true, cache: true },
];

/** A fresh project pointed at this run's own server (so prompt caches never mix between runs). */
function project(iterations, cases, baseUrl) {
  const created = createProject({
    cases,
    rubric: true,
    models: fakeServerModels(baseUrl),
    budget: { iterations, patience: iterations + 1 },
    concurrency: 4,
  });
  writeFileSync(join(created.experimentDir, 'prompt.md'), PROMPT);
  const rubric = join(created.dir, 'rubrics', 'bench.md');
  writeFileSync(rubric, `${readFileSync(rubric, 'utf8')}\n\n## Calibration\n\n${RUBRIC_NOTES}\n`);
  return created;
}

async function startServer(cache, timing) {
  return startFakeLlmServer({
    latencyMs: 5,
    respond: await createSimResponder(),
    batch: { completeAfterMs: timing.completeAfterMs },
    // No prefix reaches an infinite minimum: the provider reports no cache usage at all.
    ...(cache ? {} : { promptCache: { anthropicMinimum: () => Number.POSITIVE_INFINITY } }),
  });
}

function runEnv(baseUrl, timing, extra = {}) {
  return cleanEnv({
    ...FAKE_KEY_ENV,
    ANTHROPIC_BASE_URL: baseUrl,
    AUTORESEARCH_BATCH_POLL_MS: String(timing.pollMs),
    ...extra,
  });
}

/** What the run's journal says: spend per role, tokens, decisions, batches. */
function readRun(events) {
  const roles = {};
  let inputTokens = 0;
  let cacheReadTokens = 0;
  let cacheWriteTokens = 0;
  let batches = 0;
  // The drift anchors' re-judgings (docs/design/judge-reliability.md): fresh calls, cache bypassed,
  // so never batched.
  let rejudged = 0;
  const decisions = new Map();
  for (const event of events) {
    if (event.type === 'spend') {
      roles[event.role] ??= { usd: 0, calls: 0, batchCalls: 0, cachedCalls: 0 };
      const role = roles[event.role];
      role.usd += event.usd;
      role.calls += event.calls;
      role.batchCalls += event.batchCalls ?? 0;
      role.cachedCalls += event.cachedCalls ?? 0;
      inputTokens += event.inputTokens ?? 0;
      cacheReadTokens += event.cacheReadTokens ?? 0;
      cacheWriteTokens += event.cacheWriteTokens ?? 0;
    } else if (event.type === 'iteration_finished') {
      decisions.set(event.iteration, `${event.status} ${event.train}`);
    } else if (event.type === 'batch_submitted') {
      batches++;
    } else if (event.type === 'judge_noise' || event.type === 'judge_drift') {
      rejudged += event.anchors.length;
    }
  }
  const usd = Object.values(roles).reduce((n, r) => n + r.usd, 0);
  return {
    roles,
    usd,
    inputTokens,
    cacheReadTokens,
    cacheWriteTokens,
    batches,
    rejudged,
    decisions: JSON.stringify([...decisions]),
  };
}

async function runMode(mode, iterations, cases, timing) {
  const server = await startServer(mode.cache, timing);
  const created = project(iterations, cases, server.anthropicBaseUrl);
  try {
    const args = ['run', 'bench', ...(mode.batch ? ['--batch'] : [])];
    const result = await runCli(args, { cwd: created.dir, env: runEnv(server.anthropicBaseUrl, timing) });
    expectExit(result, [0], `run (${mode.key})`);
    return {
      ...readRun(readEvents(latestRunDir(created.dir))),
      wallMs: result.wallMs,
      created: server.batches.length,
    };
  } finally {
    await server.close();
    created.remove();
  }
}

/** SIGKILL right after the first batch is journaled, then `resume`: batches created again for its requests. */
async function killAndResume(iterations, cases, timing) {
  const server = await startServer(true, timing);
  const created = project(iterations, cases, server.anthropicBaseUrl);
  try {
    const env = runEnv(server.anthropicBaseUrl, timing);
    const killed = await runCli(['run', 'bench', '--batch'], {
      cwd: created.dir,
      env: { ...env, AUTORESEARCH_TEST_KILL_AT: 'batch_submitted:1' },
    });
    if (killed.signal !== 'SIGKILL')
      throw new Error(`the run was not killed: exit ${killed.code}\n${killed.stderr}`);
    const runDir = latestRunDir(created.dir);
    const pending = readEvents(runDir).find((e) => e.type === 'batch_submitted');
    if (pending === undefined) throw new Error('the killed run journaled no batch');
    const batch = server.batches.find((b) => b.id === pending.batchId);
    const keys = new Set(batch?.customIds ?? []);
    const from = server.batches.length;
    const resumed = await runCli(['resume', basename(runDir)], { cwd: created.dir, env });
    expectExit(resumed, [0], 'resume');
    const after = server.batches.slice(from);
    const finished = readEvents(runDir).find(
      (e) => e.type === 'batch_finished' && e.batchId === pending.batchId,
    );
    return {
      pendingRequests: keys.size,
      pendingCancelled: batch?.cancelled === true,
      resubmitted: after.filter((b) => b.customIds.some((k) => keys.has(k))).length,
      createdAfter: after.length,
      polled: finished !== undefined,
      resumeWallMs: resumed.wallMs,
    };
  } finally {
    await server.close();
    created.remove();
  }
}

const usd = (v) => `$${v.toFixed(4)}`;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Neither a batch call nor a response-cache hit (which made no provider call): paid at the full price. */
const interactiveCalls = (role) => role.calls - role.batchCalls - role.cachedCalls;

/**
 * What --batch leaves interactive, and whether it is only what docs/design/cost-engine.md,
 * docs/design/judge-reliability.md leave so.
 */
function notHalved(run) {
  const of = (role) => interactiveCalls(run.roles[role] ?? { calls: 0, batchCalls: 0, cachedCalls: 0 });
  const byDesign = of('generator') === 0 && of('grader') === 0 && of('judge') === run.rejudged;
  return (
    `Not halved by --batch, its interactive calls: mutator ${of('mutator')} (interactive by design); judge ${of('judge')}, ` +
    `of which ${run.rejudged} are the drift anchors' re-judgings (fresh, cache bypassed, so no batch can answer them); ` +
    `generator ${of('generator')}; grader ${of('grader')}. Every other call was a batch call or a response-cache hit: ` +
    `${byDesign ? 'only what is interactive by design is left' : 'MORE is left interactive than by design'}.`
  );
}

await runBenchmark(
  { key: 'cost', script: 'bench/cost.mjs', title: '9. Cost: batch and prompt caching' },
  async ({ smoke }) => {
    const iterations = smoke ? 1 : 10;
    const cases = smoke ? 4 : CASES;
    const timing = smoke ? SMOKE_TIMING : TIMING;
    const results = {};
    for (const mode of MODES) {
      results[mode.key] = await runMode(mode, iterations, cases, timing);
      const r = results[mode.key];
      console.log(`  ${mode.key}: ${usd(r.usd)}, ${r.batches} batches, ${seconds(r.wallMs)}`);
    }
    const kill = await killAndResume(iterations, cases, timing);
    const base = results.interactive;
    const comparable = MODES.every((m) => results[m.key].decisions === base.decisions);
    const share = results['batch+caching'].usd / base.usd;

    const header = [
      'mode',
      'USD per run',
      'USD per iteration',
      ...ROLES.map((role) => `${role} USD (batch / cached / interactive calls)`),
      'cached-token share (cache read / input)',
      'cache-write tokens',
      'batches',
      'wall time',
      'vs interactive',
    ];
    const rows = MODES.map((mode) => {
      const r = results[mode.key];
      return [
        mode.key,
        usd(r.usd),
        usd(r.usd / iterations),
        ...ROLES.map((role) => {
          const x = r.roles[role] ?? { usd: 0, calls: 0, batchCalls: 0, cachedCalls: 0 };
          return `${usd(x.usd)} (${x.batchCalls} / ${x.cachedCalls} / ${interactiveCalls(x)})`;
        }),
        pct(r.inputTokens > 0 ? r.cacheReadTokens / r.inputTokens : Number.NaN),
        String(r.cacheWriteTokens),
        String(r.batches),
        seconds(r.wallMs),
        pct(r.usd / base.usd),
      ];
    });
    const findings = [
      comparable
        ? `Decisions: identical in the three runs (status and train score of each of the ${iterations} iterations and the baseline).`
        : 'NOT COMPARABLE: the three runs decided differently (status or train score of some iteration), so their costs are not of the same work.',
      `batch+caching / interactive: ${pct(share)}; target ≤ ${pct(TARGET_SHARE)}: ${comparable ? verdict(share <= TARGET_SHARE) : 'NOT COMPARABLE'}.`,
      `Kill while a batch is pending (SIGKILL right after the first \`batch_submitted\`, ${kill.pendingRequests} requests; ` +
        `${kill.pendingCancelled ? 'cancelled' : 'not cancelled'} by the kill), then \`resume\`: ${kill.resubmitted} batches created again ` +
        `holding any of its requests (target 0: ${verdict(kill.resubmitted === 0)}); the pending batch was ` +
        `${kill.polled ? 'polled and finished' : 'NOT finished'}; the resume created ${kill.createdAfter} batches for the rest of the run ` +
        `and took ${seconds(kill.resumeWallMs)}.`,
    ];
    const method = [
      `One run of \`autoresearch run bench\` (the built CLI, a fresh temporary project per run) per mode: ${cases} generated cases, ` +
        `${iterations} iteration${iterations === 1 ? '' : 's'} (patience off), search.seed 1, concurrency 4, the built-in judge with the ` +
        'cold-email rubric and the bench checks; every role on claude-sonnet-4-5 over the Anthropic wire format against the fake ' +
        'LLM server (replies from the built simulated model, the same for every mode), priced by the built-in table.',
      "The prompt and rubric are bench-local copies made longer (a fixed 24-line style guide before the prompt's task, 24 " +
        "calibration notes after the rubric) so the cacheable prefixes pass Anthropic's 1,024-token minimum for this model; the " +
        'examples as shipped are shorter than that and would not be cached.',
      `Fake server: ${timing.completeAfterMs} ms batch completion delay (completeAfterMs), 5 ms per interactive call, polled every ` +
        `${timing.pollMs} ms. "Prompt cache off" starts the fake with an infinite caching minimum: it reports no cache usage, as a ` +
        "provider without caching would. USD and tokens from the run's spend events (the ledger, final evaluation included); " +
        'the cached-token share is cache-read tokens over all input tokens (cached ones included). Calls per role: batch ' +
        "(through the batch API, at its discount), cached (a request the run had already made, answered by the run's response " +
        'cache: no provider call, nothing paid; the same in every mode) and interactive (one by one, full price).',
    ];
    findings.push(notHalved(results.batch));
    const text = [...method, '', textTable(header, rows), '', ...findings].join('\n');
    const markdown = [
      ...method.flatMap((m) => [m, '']),
      markdownTable(header, rows),
      '',
      ...findings.flatMap((f) => [f, '']),
    ].join('\n');
    return { text, markdown };
  },
);
