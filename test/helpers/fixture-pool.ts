/**
 * A pareto run folder (docs/design/pareto-search.md) for review tests (show, report), written by
 * code as the loop would journal it: parent choices, each candidate's outcome, the members entering
 * the pool with their per-case train scores, and a merge that becomes the best. Four train cases
 * and a holdout one; two proposals per iteration.
 *
 *   iteration 1  c0 p0 → p1 (keep: the best moves)        c1 p0 → discard
 *   iteration 2  c0 p0 → p2 (pooled: leads t3, t4)         c1 p1 → screened_out
 *   iteration 3  c0 p2 → p3 (pooled)                       c1 p1 → inconclusive
 *   iteration 4  merge p1 + p3 (ancestor p0) → p4 (keep)
 *   iteration 5  c0 p4 → discard                           c1 p3 → provider_error
 *
 * The front at the end: p4 leads t1 and t2, p3 leads t3 and t4 (p1 ties p4 on t1).
 *
 *   const run = await writePoolRun(runsDir);
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PairedDecisionRecord, RunEvent, RunEventBody } from '../../src/run/events.js';
import { stampEvent } from '../../src/run/events.js';
import { candidatePaths, runPaths } from '../../src/run/paths.js';
import { reduceRun } from '../../src/run/reducer.js';
import { formatResultsTsv } from '../../src/run/results-tsv.js';
import { sha256Hex } from '../../src/sha256.js';
import { fixtureManifest } from './fixture-scenarios.js';

export const POOL_RUN_ID = '20261130-0100-cold-email-p4r3';
export const POOL_CASES = ['t1', 't2', 't3', 't4'] as const;

interface MemberPlan {
  id: string;
  parents: string[];
  kind: 'seed' | 'mutation' | 'merge';
  cases: [number, number, number, number];
  holdout: number;
  hypothesis: string | null;
}

/** Each member's per-case train scores (t1..t4) and holdout. */
export const POOL_MEMBERS: Record<string, MemberPlan> = {
  p0: { id: 'p0', parents: [], kind: 'seed', cases: [0.5, 0.5, 0.5, 0.5], holdout: 0.5, hypothesis: null },
  p1: {
    id: 'p1',
    parents: ['p0'],
    kind: 'mutation',
    cases: [0.9, 0.8, 0.5, 0.5],
    holdout: 0.6,
    hypothesis: "Open with the recipient's own pain",
  },
  p2: {
    id: 'p2',
    parents: ['p0'],
    kind: 'mutation',
    cases: [0.5, 0.5, 0.9, 0.8],
    holdout: 0.55,
    hypothesis: 'End with one concrete question',
  },
  p3: {
    id: 'p3',
    parents: ['p2'],
    kind: 'mutation',
    cases: [0.5, 0.55, 0.95, 0.9],
    holdout: 0.6,
    hypothesis: 'Name a 15-minute slot next week',
  },
  p4: {
    id: 'p4',
    parents: ['p1', 'p3'],
    kind: 'merge',
    cases: [0.9, 0.85, 0.9, 0.85],
    holdout: 0.7,
    hypothesis: "Merge p1 and p3: the recipient's pain and a concrete slot",
  },
};

type Outcome =
  | { status: 'pooled' | 'keep'; member: string }
  | { status: 'discard' | 'inconclusive' | 'screened_out'; train: number; delta: number }
  | { status: 'error'; message: string };

interface CandidatePlan {
  kind: 'mutation' | 'merge';
  parents: string[];
  hypothesis: string;
  outcome: Outcome;
}

const ITERATIONS: CandidatePlan[][] = [
  [
    {
      kind: 'mutation',
      parents: ['p0'],
      hypothesis: POOL_MEMBERS.p1!.hypothesis!,
      outcome: { status: 'keep', member: 'p1' },
    },
    {
      kind: 'mutation',
      parents: ['p0'],
      hypothesis: 'Add three customer names',
      outcome: { status: 'discard', train: 0.45, delta: -0.05 },
    },
  ],
  [
    {
      kind: 'mutation',
      parents: ['p0'],
      hypothesis: POOL_MEMBERS.p2!.hypothesis!,
      outcome: { status: 'pooled', member: 'p2' },
    },
    {
      kind: 'mutation',
      parents: ['p1'],
      hypothesis: 'Drop the subject line',
      outcome: { status: 'screened_out', train: 0.6, delta: -0.2 },
    },
  ],
  [
    {
      kind: 'mutation',
      parents: ['p2'],
      hypothesis: POOL_MEMBERS.p3!.hypothesis!,
      outcome: { status: 'pooled', member: 'p3' },
    },
    {
      kind: 'mutation',
      parents: ['p1'],
      hypothesis: 'Shorter opening line',
      outcome: { status: 'inconclusive', train: 0.68, delta: 0.005 },
    },
  ],
  [
    {
      kind: 'merge',
      parents: ['p1', 'p3'],
      hypothesis: POOL_MEMBERS.p4!.hypothesis!,
      outcome: { status: 'keep', member: 'p4' },
    },
  ],
  [
    {
      kind: 'mutation',
      parents: ['p4'],
      hypothesis: 'Mention the company in every paragraph',
      outcome: { status: 'discard', train: 0.8, delta: -0.075 },
    },
    {
      kind: 'mutation',
      parents: ['p3'],
      hypothesis: 'Warmer sign-off',
      outcome: { status: 'error', message: 'HTTP 529 overloaded after 4 attempts' },
    },
  ],
];

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const trainOf = (m: MemberPlan) => round4(mean(m.cases));
const casesOf = (m: MemberPlan) => Object.fromEntries(POOL_CASES.map((id, i) => [id, m.cases[i] as number]));
const promptOf = (m: MemberPlan) => `You write cold emails.\n\n${m.hypothesis ?? 'Be brief.'}\n`;

/** A paired record of per-case differences (one sample each, 90% one-sided bounds). */
function paired(differences: readonly number[]): PairedDecisionRecord {
  const n = differences.length;
  const m = mean(differences);
  const sd = Math.sqrt(differences.reduce((s, d) => s + (d - m) ** 2, 0) / (n - 1));
  const half = 1.638 * (sd / Math.sqrt(n));
  return {
    confidence: 0.9,
    looks: 1,
    train: { n, mean: round4(m), sd: round4(sd), lo: round4(m - half), hi: round4(m + half) },
    holdout: null,
    wins: differences.filter((d) => d > 0).length,
    losses: differences.filter((d) => d < 0).length,
    ties: differences.filter((d) => d === 0).length,
  };
}

export interface PoolPlan {
  id: string;
  events: RunEvent[];
  files: Map<string, string>;
  best: string;
}

export function planPoolRun(id = POOL_RUN_ID): PoolPlan {
  const events: RunEvent[] = [];
  const files = new Map<string, string>();
  let clock = Date.parse('2026-11-30T01:00:00.000Z');
  const emit = (body: RunEventBody, seconds = 2) => {
    clock += seconds * 1000;
    events.push(stampEvent(body, new Date(clock)) as RunEvent);
  };
  const put = (path: string, value: unknown) =>
    files.set(path, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
  const poolMember = (m: MemberPlan, iteration: number, candidate: number): RunEventBody => ({
    type: 'pool_member',
    member: m.id,
    iteration,
    candidate,
    kind: m.kind,
    parents: m.parents,
    promptSha256: sha256Hex(promptOf(m)),
    train: trainOf(m),
    holdout: m.holdout,
    eligible: true,
    cases: casesOf(m),
  });
  const writeCandidate = (iteration: number, candidate: number, prompt: string) => {
    const cp = candidatePaths('', iteration, candidate);
    put(cp.prompt, prompt);
    put(cp.evaluation, {
      evaluation: {
        cases: [...POOL_CASES.map((c) => ({ id: c, split: 'train' })), { id: 'h1', split: 'holdout' }],
      },
    });
  };

  emit(
    {
      type: 'run_started',
      runId: id,
      kind: 'run',
      experiment: 'cold-email',
      configDigest: 'c'.repeat(64),
      overrides: {},
      git: { branch: `autoresearch/cold-email/${id}`, base: 'c0ffee'.padEnd(40, '0'), baselineCommit: null },
      simulated: ['generator', 'mutator', 'judge'],
    },
    0,
  );
  const p0 = POOL_MEMBERS.p0!;
  emit({ type: 'iteration_started', iteration: 0, mode: 'focused' });
  emit({ type: 'phase', iteration: 0, phase: 'baseline' });
  writeCandidate(0, 0, promptOf(p0));
  emit({ type: 'spend', role: 'generator', usd: 0.01, calls: 5, iteration: 0 });
  emit(poolMember(p0, 0, 0));
  emit({
    type: 'iteration_finished',
    iteration: 0,
    status: 'baseline',
    candidate: 0,
    train: trainOf(p0),
    holdout: p0.holdout,
    incumbentBefore: null,
    delta: null,
    hypothesis: null,
    promptSha256: sha256Hex(promptOf(p0)),
    costUsd: 0.01,
    seconds: 12,
  });

  let best = p0;
  ITERATIONS.forEach((candidates, index) => {
    const iteration = index + 1;
    const merge = candidates.some((c) => c.kind === 'merge');
    emit({ type: 'iteration_started', iteration, mode: 'focused' });
    for (const [k, c] of candidates.entries())
      emit({
        type: 'parent_chosen',
        iteration,
        candidate: k,
        kind: c.kind,
        parents: c.parents,
        ...(c.kind === 'merge' ? { ancestor: 'p0' } : {}),
        weights: {},
        draw: c.kind === 'merge' ? null : 0.25 + 0.5 * k,
      });
    emit({ type: 'phase', iteration, phase: merge ? 'merging' : 'mutating' });
    const members: RunEventBody[] = [];
    const decided: Extract<RunEventBody, { type: 'candidate_decided' }>[] = [];
    candidates.forEach((c, k) => {
      const parent = POOL_MEMBERS[c.parents[0] as string]!;
      const o = c.outcome;
      const member = 'member' in o ? POOL_MEMBERS[o.member]! : null;
      const prompt = member ? promptOf(member) : `You write cold emails.\n\n${c.hypothesis}\n`;
      if (o.status !== 'error') writeCandidate(iteration, k, prompt);
      emit({
        type: 'proposal',
        iteration,
        candidate: k,
        hypothesis: c.hypothesis,
        promptSha256: sha256Hex(prompt),
        duplicate: false,
      });
      const differences = member ? member.cases.map((s, i) => round4(s - (parent.cases[i] as number))) : null;
      const train = member ? trainOf(member) : 'train' in o ? o.train : null;
      const delta = differences ? round4(mean(differences)) : 'delta' in o ? o.delta : null;
      const becameBest = o.status === 'keep' && member !== null;
      decided.push({
        type: 'candidate_decided',
        iteration,
        candidate: k,
        kind: c.kind,
        parents: c.parents,
        status: o.status === 'keep' ? 'pooled' : o.status,
        member: member?.id ?? null,
        train,
        holdout: member ? member.holdout : o.status === 'error' ? null : 0.5,
        delta,
        ...(differences ? { paired: paired(differences) } : {}),
        ...(o.status === 'discard' || o.status === 'inconclusive'
          ? {
              paired: paired([
                delta as number,
                (delta as number) + 0.05,
                (delta as number) - 0.05,
                delta as number,
              ]),
            }
          : {}),
        ...(o.status === 'screened_out'
          ? { screen: { cases: ['t1', 't2'], mean: delta as number, passed: false, callsSaved: 4 } }
          : {}),
        ...(member && c.kind === 'merge'
          ? {
              pairedOther: paired(
                member.cases.map((s, i) =>
                  round4(s - (POOL_MEMBERS[c.parents[1] as string]!.cases[i] as number)),
                ),
              ),
            }
          : {}),
        ...(member
          ? {
              best: {
                against: best.id,
                paired: paired(member.cases.map((s, i) => round4(s - (best.cases[i] as number)))),
                baselineHoldout: null,
                moved: becameBest,
                reason: becameBest ? 'a clear gain over the best' : 'no clear gain over the best',
              },
            }
          : {}),
        ...(o.status === 'error' ? { errorKind: 'provider_error' as const, message: o.message } : {}),
        hypothesis: c.hypothesis,
        promptSha256: o.status === 'error' ? null : sha256Hex(prompt),
      });
      if (member) members.push(poolMember(member, iteration, k));
    });
    // The closing append (docs/design/pareto-search.md): every candidate's outcome, then the new
    // members.
    for (const body of [...decided, ...members]) emit(body, 1);
    emit({ type: 'spend', role: 'generator', usd: 0.02, calls: 10, iteration });
    emit({ type: 'spend', role: 'mutator', usd: 0.01, calls: candidates.length, iteration });
    // The status is about the new best, else a pooled candidate, else the first.
    const shown =
      decided.find((d) => d.best?.moved) ??
      decided.find((d) => d.status === 'pooled') ??
      (decided[0] as (typeof decided)[number]);
    const moved = shown.best?.moved ? POOL_MEMBERS[shown.member as string]! : null;
    if (moved) emit({ type: 'commit', iteration, sha: `${iteration}`.padEnd(40, 'a') });
    emit({
      type: 'iteration_finished',
      iteration,
      status: moved ? 'keep' : shown.status,
      candidate: shown.status === 'error' ? null : shown.candidate,
      train: shown.train,
      holdout: shown.holdout,
      incumbentBefore: trainOf(best),
      delta: shown.delta,
      ...(shown.paired ? { paired: shown.paired } : {}),
      ...(shown.screen ? { screen: shown.screen } : {}),
      hypothesis: shown.hypothesis,
      promptSha256: shown.promptSha256,
      costUsd: 0.03,
      seconds: 20 + iteration,
    });
    if (moved) best = moved;
  });
  emit({ type: 'run_stopped', reason: 'iterations', message: 'reached the iteration budget (5)' }, 1);
  return { id, events, files, best: promptOf(best) };
}

/** `minEffect`: the run's `search.min_effect` as its manifest records it. */
export async function writePoolRun(
  runsDir: string,
  { id = POOL_RUN_ID, minEffect = 0.01 }: { id?: string; minEffect?: number } = {},
): Promise<{ id: string; dir: string; events: RunEvent[] }> {
  const plan = planPoolRun(id);
  const dir = join(runsDir, plan.id);
  await mkdir(dir, { recursive: true });
  for (const [path, text] of plan.files) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  const manifest = fixtureManifest(plan.id, dir) as { config: Record<string, unknown> };
  manifest.config = { search: { strategy: 'pareto', candidates: 2, merge_every: 4, min_effect: minEffect } };
  await writeFile(runPaths(dir).manifest, `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(runPaths(dir).best, plan.best);
  await writeFile(runPaths(dir).events, plan.events.map((e) => `${JSON.stringify(e)}\n`).join(''));
  await writeFile(runPaths(dir).results, formatResultsTsv(reduceRun(plan.events)));
  return { id: plan.id, dir, events: plan.events };
}
