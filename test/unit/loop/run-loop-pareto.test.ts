/**
 * The pareto search in the loop (docs/design/pareto-search.md), driven with the scripted harness.
 * The generator echoes the prompt, but a word tagged `word@Name` reaches only that case's output,
 * so a test scripts each train case's score (the share of alpha/bravo/charlie/delta in it, plus the
 * gate) and with it the front. The mutator answers by the parent it is shown, so the candidates'
 * replies do not depend on the order their requests arrive in.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractMergeBlock, type MergeRequest } from '../../../src/protocol/merge-request.js';
import { extractFeedbackBlock } from '../../../src/protocol/mutation.js';
import { runPaths } from '../../../src/run/paths.js';
import type { RunEvent } from '../../../src/run/events.js';
import { cleanUpScriptedRuns, runScripted, statusesOf } from '../../helpers/loop-harness.js';
import { firstUserMessage, lastUserMessage, type ScriptedHandler } from '../../helpers/scripted-provider.js';

afterAll(cleanUpScriptedRuns);

const pareto = {
  strategy: 'pareto',
  acceptance: 'paired',
  min_effect: 0.01,
  confidence: 0.9,
  retest: 1,
  candidates: 2,
  merge_every: 100,
};

/** The harness's prompt with these (possibly tagged) words. */
const prompt = (words: string) => `Write a short note to {{name}} that uses these words: ${words}.\n`;

/** Echoes the request; `word@Name` stays (as `word`) only in Name's output. */
const taggedEcho: ScriptedHandler = ({ request }) => {
  const text = lastUserMessage(request);
  const name = /note to (\S+) that/.exec(text)?.[1] ?? '';
  return text.replace(/(\w+)@(\w+)/g, (_whole, word: string, owner: string) => (owner === name ? word : ''));
};

/** Replies by the parent prompt the request shows (its words); a parent not listed is a test bug. */
function mutatorByParent(replies: Record<string, { hypothesis: string; words: string }>): ScriptedHandler {
  return ({ request }) => {
    const shown = firstUserMessage(request);
    const parent = Object.keys(replies)
      .sort((a, b) => b.length - a.length)
      .find((words) => shown.includes(JSON.stringify(prompt(words)).slice(1, -1)));
    if (parent === undefined) throw new Error(`no scripted reply for this parent:\n${shown.slice(0, 400)}`);
    const reply = replies[parent] as { hypothesis: string; words: string };
    return JSON.stringify({ hypothesis: reply.hypothesis, prompt: prompt(reply.words) });
  };
}

type Decided = Extract<RunEvent, { type: 'candidate_decided' }>;
type Member = Extract<RunEvent, { type: 'pool_member' }>;
type Chosen = Extract<RunEvent, { type: 'parent_chosen' }>;

const decidedIn = (events: readonly RunEvent[], iteration: number) =>
  events.filter((e): e is Decided => e.type === 'candidate_decided' && e.iteration === iteration);

function readResults(text: string): Record<string, string>[] {
  const [header, ...rows] = text.trimEnd().split('\n');
  const names = (header ?? '').split('\t');
  return rows.map((row) => Object.fromEntries(row.split('\t').map((cell, i) => [names[i], cell])));
}

describe('runLoop: the pareto search', () => {
  // Train cases t1 Ada, t2 Bo, t3 Cy; p0 scores 0.4 on each.
  //   iteration 1, both from p0:  c → [.8 .8 .6] (moves the best: p1)   c → [.6 .6 .8] (pooled: p2)
  //   iteration 2, from p1 and p2: p1's child loses everywhere (discard); p2's child gains
  //     +0.2 on every case over p2 (pooled as p3) but against the best p1 only [0 0 +.4]: not a
  //     clear win, so the best stays
  //   iteration 3, from p1 and p3: p1's child gains on every case over the best (keep: p4);
  //     p3's child is p0's prompt again (duplicate)
  const replies = {
    alpha: { hypothesis: 'p0 child', words: 'alpha bravo charlie@Ada charlie@Bo' },
    'alpha bravo charlie@Ada charlie@Bo': { hypothesis: 'p1 child', words: 'alpha delta@Quillon' },
    'alpha delta charlie@Cy': { hypothesis: 'p2 child', words: 'alpha delta charlie@Cy bravo' },
    'alpha delta charlie@Cy bravo': { hypothesis: 'p3 child', words: 'alpha' },
  };
  const iterationOne = [
    { hypothesis: 'p0 child A', words: 'alpha bravo charlie@Ada charlie@Bo' },
    { hypothesis: 'p0 child B', words: 'alpha delta charlie@Cy' },
  ];

  it('pools a non-best lineage, moves the best only on a clear win, one results row per candidate', async () => {
    const byParent = mutatorByParent(replies);
    const mutator: ScriptedHandler = (call) => {
      const shown = firstUserMessage(call.request);
      // Iteration 1: both candidates come from p0 (the front has one member): one reply each,
      // chosen by the candidate's number (its sample index), not by which request arrives first.
      if (shown.includes('uses these words: alpha.') && !shown.includes('alpha bravo')) {
        const reply = iterationOne[call.request.sampleIndex ?? 0] as { hypothesis: string; words: string };
        return JSON.stringify({ hypothesis: reply.hypothesis, prompt: prompt(reply.words) });
      }
      // p1's second child (iteration 3: its lineage already shows the first one's attempt) is the
      // one that beats the best everywhere.
      if (
        shown.includes(JSON.stringify(prompt('alpha bravo charlie@Ada charlie@Bo')).slice(1, -1)) &&
        shown.includes('p1 child')
      )
        return JSON.stringify({ hypothesis: 'p1 child 2', prompt: prompt('alpha bravo charlie delta') });
      return byParent(call);
    };
    const run = await runScripted({
      mutator,
      generator: taggedEcho,
      prompt: prompt('alpha'),
      search: pareto,
      budget: { iterations: 3 },
    });
    expect(run.end.reason).toBe('iterations');
    expect(statusesOf(run)).toEqual(['baseline', 'keep', 'pooled', 'keep']);

    const state = run.recorder.state();
    const pool = state.pool;
    expect(pool?.members.map((m) => [m.id, m.kind, m.parents.join('+'), m.iteration])).toEqual([
      ['p0', 'seed', '', 0],
      ['p1', 'mutation', 'p0', 1],
      ['p2', 'mutation', 'p0', 1],
      ['p3', 'mutation', 'p2', 2],
      ['p4', 'mutation', 'p1', 3],
    ]);
    expect(pool?.best).toBe('p4');
    const p3 = run.events.find((e): e is Member => e.type === 'pool_member' && e.member === 'p3');
    expect(p3?.cases).toEqual({
      t1: expect.closeTo(0.8, 9),
      t2: expect.closeTo(0.8, 9),
      t3: expect.closeTo(1, 9),
    });

    // Iteration 1: both from p0; the larger gain moves the best, the other enters the pool.
    const one = decidedIn(run.events, 1);
    expect(one.map((d) => [d.parents[0], d.status, d.member, d.best?.moved])).toEqual([
      ['p0', 'pooled', 'p1', true],
      ['p0', 'pooled', 'p2', false],
    ]);
    expect(one[1]?.best?.reason).toMatch(/p1 beat the best by more/);

    // Iteration 2: one candidate from each front member; p2's child is pooled, the best stays p1.
    const chosen = run.events.filter((e): e is Chosen => e.type === 'parent_chosen' && e.iteration === 2);
    expect(chosen.map((c) => c.parents[0]).sort()).toEqual(['p1', 'p2']);
    expect(chosen[0]?.weights).toEqual({ p1: 2, p2: 1 });
    const two = decidedIn(run.events, 2);
    const fromP2 = two.find((d) => d.parents[0] === 'p2') as Decided;
    expect(fromP2).toMatchObject({ status: 'pooled', member: 'p3', best: { against: 'p1', moved: false } });
    expect(fromP2.delta).toBeCloseTo(0.2, 9);
    expect(fromP2.best?.paired.train.mean).toBeCloseTo(0.4 / 3, 9);
    expect(two.find((d) => d.parents[0] === 'p1')?.status).toBe('discard');
    expect(state.iterations[2]).toMatchObject({ status: 'pooled', candidate: fromP2.candidate });
    expect(state.iterations[2]?.best).toBeCloseTo(2.2 / 3, 9);

    // Iteration 3: p1's child beats the best clearly and becomes it; p3's child repeats p0.
    const three = decidedIn(run.events, 3);
    expect(three.find((d) => d.parents[0] === 'p1')).toMatchObject({
      status: 'pooled',
      member: 'p4',
      best: { moved: true },
    });
    expect(three.find((d) => d.parents[0] === 'p3')?.status).toBe('duplicate');
    expect(state.incumbent?.iteration).toBe(3);
    expect(state.incumbent?.train).toBeCloseTo(1, 9);

    // Each candidate's mutator request showed its own parent and the attempts of its lineage; the
    // other lineage's attempt by its hypothesis alone, as tried elsewhere.
    const p3Request = run.scripted
      .callsTo('mut')
      .map((c) => firstUserMessage(c.request))
      .find((text) => text.includes('alpha delta charlie@Cy bravo.'));
    const p3Feedback = extractFeedbackBlock(p3Request ?? '');
    expect(p3Feedback?.history.map((a) => a.hypothesis)).toContain('p2 child');
    expect(p3Feedback?.history.map((a) => a.hypothesis)).not.toContain('p1 child');
    expect(p3Feedback?.tried).toContain('p1 child');

    const rows = readResults(await readFile(runPaths(run.runDir).results, 'utf8'));
    expect(rows.map((r) => [r['iteration'], r['candidate'], r['status'], r['member']])).toEqual([
      ['0', '0', 'baseline', 'p0'],
      ['1', '0', 'keep', 'p1'],
      ['1', '1', 'pooled', 'p2'],
      ...two.map((d) => ['2', String(d.candidate), d.status, d.member ?? '']),
      ...three.map((d) => ['3', String(d.candidate), d.best?.moved ? 'keep' : d.status, d.member ?? '']),
    ]);
    expect(
      rows
        .filter((r) => r['iteration'] === '2')
        .map((r) => r['parents'])
        .sort(),
    ).toEqual(['p1', 'p2']);
  });

  // Merges (docs/design/pareto-search.md). p0 has three lines; iteration 1's two candidates (both
  // from p0) edit different lines or the same one, so iteration 2 (merge_every 2) merges two
  // complementary leaders — p1 leads t1 and t2, p2 leads t3 — from their nearest common ancestor
  // p0.
  const open = 'Open warmly.';
  const words = 'Write a short note to {{name}} that uses these words: alpha.';
  const close = 'Close kindly.';
  const lines = (...text: string[]) => `${text.join('\n')}\n`;
  const mergeSearch = { ...pareto, merge_every: 2 };
  /** Iteration 1's replies by the candidate's number; any later mutation request is a test bug. */
  const fromP0 =
    (replies: [string, string], merge?: (shown: string) => string): ScriptedHandler =>
    (call) => {
      const shown = firstUserMessage(call.request);
      if (shown.includes('autoresearch.merge-request/v1') && merge) return merge(shown);
      if (call.index > 1) throw new Error(`unexpected mutator call ${call.index}:\n${shown.slice(0, 300)}`);
      const index = call.request.sampleIndex ?? 0;
      return JSON.stringify({ hypothesis: `p0 child ${'AB'[index]}`, prompt: replies[index] });
    };

  it('merges edits of different lines without a model call; the merge beats both parents and becomes the best', async () => {
    const run = await runScripted({
      mutator: fromP0([
        lines('Open warmly: bravo charlie@Ada charlie@Bo.', words, close),
        lines(open, words, 'Close kindly: delta charlie@Cy.'),
      ]),
      generator: taggedEcho,
      prompt: lines(open, words, close),
      search: mergeSearch,
      budget: { iterations: 2 },
    });
    expect(run.end.reason).toBe('iterations');
    expect(statusesOf(run)).toEqual(['baseline', 'keep', 'keep']);
    // Two proposals in iteration 1; the clean merge asked the mutator nothing.
    expect(run.scripted.callsTo('mut')).toHaveLength(2);

    const chosen = run.events.filter((e): e is Chosen => e.type === 'parent_chosen' && e.iteration === 2);
    expect(chosen).toEqual([
      expect.objectContaining({ kind: 'merge', parents: ['p1', 'p2'], ancestor: 'p0', draw: null }),
    ]);
    const [merge] = decidedIn(run.events, 2);
    expect(merge).toMatchObject({
      kind: 'merge',
      parents: ['p1', 'p2'],
      status: 'pooled',
      member: 'p3',
      best: { against: 'p1', moved: true },
    });
    expect(merge?.conflicts ?? 0).toBe(0);
    // Kept only because it beat both parents: the first by `paired`, the second by `pairedOther`.
    expect(merge?.paired?.train.lo).toBeGreaterThan(0);
    expect(merge?.pairedOther?.train.lo).toBeGreaterThan(0);

    const state = run.recorder.state();
    expect(state.pool?.members.map((m) => [m.id, m.kind, m.parents.join('+'), m.iteration])).toEqual([
      ['p0', 'seed', '', 0],
      ['p1', 'mutation', 'p0', 1],
      ['p2', 'mutation', 'p0', 1],
      ['p3', 'merge', 'p1+p2', 2],
    ]);
    expect(state.pool?.best).toBe('p3');
    expect(state.pool?.merges).toEqual({ attempted: 1, pooled: 1, best: 1 });
    // The merged prompt holds both edits; every case now uses all four words.
    const member = run.events.find((e): e is Member => e.type === 'pool_member' && e.member === 'p3');
    expect(member?.cases).toEqual({
      t1: expect.closeTo(1, 9),
      t2: expect.closeTo(1, 9),
      t3: expect.closeTo(1, 9),
    });
    const merged = await readFile(
      join(run.runDir, 'iterations', '0002', 'candidates', '0', 'prompt.md'),
      'utf8',
    );
    expect(merged).toBe(
      lines('Open warmly: bravo charlie@Ada charlie@Bo.', words, 'Close kindly: delta charlie@Cy.'),
    );
  });

  it('asks the mutator to resolve edits of the same line, showing the ancestor and both versions', async () => {
    const ours = 'Write a short note to {{name}} that uses these words: alpha bravo charlie@Ada charlie@Bo.';
    const theirs = 'Write a short note to {{name}} that uses these words: alpha delta charlie@Cy.';
    const resolved = 'Write a short note to {{name}} that uses these words: alpha bravo delta charlie.';
    let request: MergeRequest | undefined;
    const run = await runScripted({
      mutator: fromP0([lines(open, ours, close), lines(open, theirs, close)], (shown) => {
        request = extractMergeBlock(shown);
        return JSON.stringify({ hypothesis: 'all four words for everyone', resolutions: { '1': resolved } });
      }),
      generator: taggedEcho,
      prompt: lines(open, words, close),
      search: mergeSearch,
      budget: { iterations: 2 },
    });
    expect(statusesOf(run)).toEqual(['baseline', 'keep', 'keep']);
    expect(run.scripted.callsTo('mut')).toHaveLength(3);
    // The request: one conflict on the words line, the ancestor's text and each side's.
    expect(request).toMatchObject({ ancestor: 'p0', ours: { member: 'p1' }, theirs: { member: 'p2' } });
    expect(request?.conflicts).toEqual([{ id: 1, part: 'prompt', ancestor: words, ours, theirs }]);
    expect(request?.parts[0]?.merged).toBe(lines(open, '[[conflict 1]]', close));

    const [merge] = decidedIn(run.events, 2);
    expect(merge).toMatchObject({ kind: 'merge', status: 'pooled', member: 'p3', conflicts: 1 });
    expect(merge?.hypothesis).toMatch(/1 overlapping edit resolved: all four words for everyone/);
    const merged = await readFile(
      join(run.runDir, 'iterations', '0002', 'candidates', '0', 'prompt.md'),
      'utf8',
    );
    expect(merged).toBe(lines(open, resolved, close));
    expect(run.recorder.state().pool?.best).toBe('p3');
  });

  it('discards a merge that does not beat both parents', async () => {
    const ours = 'Write a short note to {{name}} that uses these words: alpha bravo charlie@Ada charlie@Bo.';
    const theirs = 'Write a short note to {{name}} that uses these words: alpha delta charlie@Cy.';
    // p1's words reworded: no better than p1 on any case (nor worse), so it cannot be kept.
    const resolved = `${ours} Keep it short.`;
    const run = await runScripted({
      mutator: fromP0([lines(open, ours, close), lines(open, theirs, close)], () =>
        JSON.stringify({ hypothesis: 'p1 reworded', resolutions: { '1': resolved } }),
      ),
      generator: taggedEcho,
      prompt: lines(open, words, close),
      search: mergeSearch,
      budget: { iterations: 2 },
    });
    const [merge] = decidedIn(run.events, 2);
    expect(merge).toMatchObject({ kind: 'merge', status: 'discard', member: null });
    expect(merge?.paired?.train).toMatchObject({ mean: 0, hi: 0 });
    const state = run.recorder.state();
    expect(state.pool?.members.map((m) => m.id)).toEqual(['p0', 'p1', 'p2']);
    expect(state.pool?.best).toBe('p1');
    expect(state.pool?.merges).toEqual({ attempted: 1, pooled: 0, best: 0 });
  });
});
