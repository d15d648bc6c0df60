#!/usr/bin/env node
/**
 * 7. Acceptance: how often each acceptance rule keeps a proposal, on simulated
 * experiments whose truth the benchmark decides (bench/lib/simulated-truth.mjs). The product's
 * own decision functions from dist/ get only the drawn per-case scores:
 *
 *   paired (version 2): src/loop/paired.ts in the order src/loop/accept-paired.ts calls it:
 *     screen on drawMinibatch (src/experiment/iteration-plan.ts) → the rest only when passesScreen → first look at lookConfidence
 *     → on `retest` both sides get `retest` more samples per case, poolCaseMeans → last look.
 *   margin (version 1): src/loop/decide.ts: the baseline's `noise_repeats` evaluations give
 *     baselineFrom (the incumbent) and marginFrom (min_improvement auto), then decide.
 *
 * Every decision is a fresh experiment: the baseline, then one proposal (search.candidates 1)
 * judged by every rule on the same draws. Measured: A/A (true gain 0: the share kept must be
 * ≤ 1 − confidence), power (true gains 0.02, 0.05, 0.1 at 12 and 30 train cases), and what the
 * minibatch screen saves in generations per iteration against what it costs in power.
 * Shares and counts only: nothing here is timed.
 */
import { runBenchmark } from './lib/harness.mjs';
import { distModule } from './lib/paths.mjs';
import { createRandom, drawTruth, evaluate, NOISE_MODELS, QUALITY_RANGE } from './lib/simulated-truth.mjs';
import { median, pct, ratio, sum, verdict } from './lib/stats.mjs';
import { markdownTable, textTable } from './lib/table.mjs';

const TRAIN_SIZES = [12, 30];
const GAINS = [0.02, 0.05, 0.1];
const CHURN = 0.1;
/** What proposals a run sees, for the calls figure: most change nothing or hurt, some help. */
const MIX = [
  { label: 'no change', gain: 0, share: 0.5 },
  { label: 'worse by 0.05', gain: -0.05, share: 0.3 },
  { label: 'better by 0.05', gain: 0.05, share: 0.15 },
  { label: 'better by 0.1', gain: 0.1, share: 0.05 },
];
const TARGET_CALLS_SAVED = 0.2;
const TARGET_POWER_LOSS = 0.05;
const MINIBATCH_SIZES = [8, 12, 16];
/** Decisions per grouped-noise row (a few minutes for the whole script on 2 cores). */
const GROUPED_DECISIONS = 20000;

async function loadProduct() {
  const paired = await import(distModule('loop/paired.js'));
  const { decide, marginFrom, baselineFrom } = await import(distModule('loop/decide.js'));
  const { drawMinibatch } = await import(distModule('experiment/iteration-plan.js'));
  const { Search } = await import(distModule('experiment/schema.js'));
  const { acceptanceOf, baselineRepeats, DEFAULT_MINIBATCH, minibatchSize } = await import(
    distModule('experiment/acceptance.js')
  );
  const { assignSplits } = await import(distModule('experiment/cases/split.js'));
  return {
    ...paired,
    decide,
    marginFrom,
    baselineFrom,
    drawMinibatch,
    DEFAULT_MINIBATCH,
    minibatchSize,
    Search,
    acceptanceOf,
    baselineRepeats,
    assignSplits,
  };
}

/** The cases of an experiment with `train` train cases at the default holdout share, split by the product. */
function experimentCases(product, search, train) {
  for (let total = train; ; total++) {
    const ids = Array.from({ length: total }, (_, i) => `case-${i + 1}`);
    const { splits } = product.assignSplits(
      ids.map((id) => ({ id })),
      { holdout: search.holdout, test: search.test },
      search.seed,
    );
    if (splits.filter((s) => s === 'train').length < train) continue;
    const splitOf = new Map(ids.map((id, i) => [id, splits[i]]));
    const trainCases = ids.filter((id) => splitOf.get(id) === 'train').map((id) => ({ id }));
    return {
      splitOf,
      allIds: ids,
      train: trainCases,
      trainIds: trainCases.map((c) => c.id),
      holdoutIds: ids.filter((id) => splitOf.get(id) === 'holdout'),
    };
  }
}

/** Version 2's rule on one proposal: what src/loop/accept-paired.ts does, with generations counted. */
function pairedRule(product, search, cases, draws, iteration, screened) {
  const size = product.minibatchSize(search, cases.train.length);
  const batch =
    screened && size < cases.train.length
      ? product.drawMinibatch(cases.train, size, search.seed, iteration).map((c) => c.id)
      : null;
  let calls = 0;
  if (batch) {
    calls += batch.length * search.samples;
    const d = product.pairCases(batch, draws.candidate, draws.incumbent).map((p) => p.d);
    if (!product.passesScreen(d)) return { status: 'screened_out', calls, looks: 0 };
    calls += (cases.allIds.length - batch.length) * search.samples;
  } else {
    calls += cases.allIds.length * search.samples;
  }
  const confidence = product.lookConfidence(search.confidence, search.retest);
  const interval = (ids, candidate, incumbent) =>
    product.pairedInterval(
      product.pairCases(ids, candidate, incumbent).map((p) => p.d),
      confidence,
    );
  const look = (candidate, incumbent, lastLook) =>
    product.decidePaired({
      train: interval(cases.trainIds, candidate, incumbent),
      holdout: cases.holdoutIds.length > 0 ? interval(cases.holdoutIds, candidate, incumbent) : null,
      candidateEligible: true,
      incumbentEligible: true,
      minEffect: search.min_effect,
      lastLook,
    });
  let decision = look(draws.candidate, draws.incumbent, search.retest === 0);
  if (decision.status !== 'retest') return { status: decision.status, calls, looks: 1 };
  // The incumbent is re-evaluated only here: both sides, every case, `retest` samples each.
  calls += 2 * cases.allIds.length * search.retest;
  decision = look(
    product.poolCaseMeans(draws.candidate, draws.candidateRetest),
    product.poolCaseMeans(draws.incumbent, draws.incumbentRetest),
    true,
  );
  return { status: decision.status, calls, looks: 2 };
}

function splitMean(means, ids) {
  return ids.reduce((total, id) => total + means.get(id).mean, 0) / ids.length;
}

/** Version 1's baseline: `noise_repeats` evaluations give the incumbent's scores and the margin. */
function versionOneBaseline(product, search, cases, baseline) {
  const hasHoldout = cases.holdoutIds.length > 0;
  const noise = {
    train: baseline.map((e) => splitMean(e, cases.trainIds)),
    holdout: hasHoldout ? baseline.map((e) => splitMean(e, cases.holdoutIds)) : [],
  };
  return {
    margin: product.marginFrom(search.min_improvement, noise),
    incumbent: product.baselineFrom(noise),
  };
}

/** Version 1's rule on one proposal: whole-split means against the incumbent's, beyond the margin. */
function versionOneRule(product, search, cases, state, candidate) {
  const hasHoldout = cases.holdoutIds.length > 0;
  // Same length on both sides: version 1's tie-break for a shorter prompt plays no part.
  const side = (train, holdout) => ({ train, holdout, eligible: true, chars: 1000 });
  const decision = product.decide({
    candidate: side(
      splitMean(candidate, cases.trainIds),
      hasHoldout ? splitMean(candidate, cases.holdoutIds) : null,
    ),
    incumbent: side(state.incumbent.train, state.incumbent.holdout),
    margin: state.margin,
  });
  return { status: decision.status, calls: cases.allIds.length * search.samples };
}

/** FNV-1a of a setting's key: each setting draws from its own seeded stream. */
function seedOf(key) {
  let hash = 0x811c9dc5;
  for (const ch of key) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

/**
 * `decisions` fresh experiments of one setting, each judged by paired (screened, as the
 * product runs it), paired without the minibatch, and version 1 on the same draws.
 */
function simulate(product, search, setting, decisions) {
  const cases = experimentCases(product, search, setting.train);
  const random = createRandom(seedOf(JSON.stringify(setting)));
  const v1Repeats = product.baselineRepeats(search, 'margin');
  const tally = () => ({ statuses: {}, calls: 0, retested: 0 });
  const rules = { screened: tally(), unscreened: tally(), v1: tally() };
  const margins = [];
  const count = (rule, outcome) => {
    rule.statuses[outcome.status] = (rule.statuses[outcome.status] ?? 0) + 1;
    rule.calls += outcome.calls;
    if (outcome.looks === 2) rule.retested++;
  };
  for (let k = 0; k < decisions; k++) {
    const truth = drawTruth(random, cases.splitOf, setting);
    const baseline = Array.from({ length: v1Repeats }, () =>
      evaluate(random, truth.incumbent, search.samples, setting.noise),
    );
    const draws = {
      baseline,
      // The paired baseline is one evaluation: version 1's first repeat.
      incumbent: baseline[0],
      candidate: evaluate(random, truth.candidate, search.samples, setting.noise),
      candidateRetest: evaluate(random, truth.candidate, search.retest, setting.noise),
      incumbentRetest: evaluate(random, truth.incumbent, search.retest, setting.noise),
    };
    const iteration = k + 1;
    count(rules.screened, pairedRule(product, search, cases, draws, iteration, true));
    count(rules.unscreened, pairedRule(product, search, cases, draws, iteration, false));
    const v1 = versionOneBaseline(product, search, cases, baseline);
    count(rules.v1, versionOneRule(product, search, cases, v1, draws.candidate));
    margins.push(v1.margin.train);
  }
  const share = (rule, status) => (rule.statuses[status] ?? 0) / decisions;
  const summary = (rule) => ({
    kept: share(rule, 'keep'),
    inconclusive: share(rule, 'inconclusive'),
    discarded: share(rule, 'discard'),
    holdoutFail: share(rule, 'holdout_fail'),
    screenedOut: share(rule, 'screened_out'),
    retested: rule.retested / decisions,
    calls: rule.calls / decisions,
  });
  return {
    cases,
    decisions,
    screened: summary(rules.screened),
    unscreened: summary(rules.unscreened),
    v1: summary(rules.v1),
    v1MedianMargin: median(margins),
  };
}

/**
 * Whole runs of proposals that change nothing: the baseline, then `iterations` iterations
 * against one incumbent record, as the loop has it (a keep makes the kept candidate's
 * evaluation the incumbent's record; version 1 keeps its baseline margin to the end). A run's
 * decisions share its incumbent's draws until a keep replaces them, so they are not independent.
 */
function simulateRuns(product, search, setting, runs, iterations) {
  const cases = experimentCases(product, search, setting.train);
  const random = createRandom(seedOf(JSON.stringify({ runs: setting })));
  const v1Repeats = product.baselineRepeats(search, 'margin');
  const kept = { paired: [], v1: [] };
  for (let r = 0; r < runs; r++) {
    const truth = drawTruth(random, cases.splitOf, setting);
    const fresh = (samples) => evaluate(random, truth.incumbent, samples, setting.noise);
    let record = fresh(search.samples);
    let keeps = 0;
    for (let iteration = 1; iteration <= iterations; iteration++) {
      const candidate = fresh(search.samples);
      const draws = {
        incumbent: record,
        candidate,
        candidateRetest: fresh(search.retest),
        incumbentRetest: fresh(search.retest),
      };
      if (pairedRule(product, search, cases, draws, iteration, true).status === 'keep') {
        keeps++;
        record = candidate;
      }
    }
    kept.paired.push(keeps);
    const state = versionOneBaseline(
      product,
      search,
      cases,
      Array.from({ length: v1Repeats }, () => fresh(search.samples)),
    );
    keeps = 0;
    for (let iteration = 1; iteration <= iterations; iteration++) {
      const candidate = fresh(search.samples);
      if (versionOneRule(product, search, cases, state, candidate).status === 'keep') {
        keeps++;
        state.incumbent = {
          train: splitMean(candidate, cases.trainIds),
          holdout: cases.holdoutIds.length > 0 ? splitMean(candidate, cases.holdoutIds) : null,
        };
      }
    }
    kept.v1.push(keeps);
  }
  const summary = (perRun) => ({
    share: sum(perRun) / (runs * iterations),
    any: perRun.filter((k) => k > 0).length / runs,
    most: Math.max(...perRun),
  });
  return { cases, runs, iterations, paired: summary(kept.paired), v1: summary(kept.v1) };
}

/** The plain-words reading under the tables, from the figures themselves. */
function reading({ nulls, wholeRuns, powers, sizesRows, largest, product, search, limit }) {
  const range = (values) => `${pct(Math.min(...values))}–${pct(Math.max(...values))}`;
  const v1Null = nulls.map((n) => n.result.v1.kept);
  const pairedNull = nulls.map((n) => n.result.screened.kept);
  const v1Ahead = powers.filter((p) => p.result.v1.kept > p.result.screened.kept);
  const biggestGap = Math.max(...powers.map((p) => p.result.v1.kept - p.result.screened.kept));
  const lossOf = (p) => p.result.unscreened.kept - p.result.screened.kept;
  const worstLoss = Math.max(...powers.map(lossOf));
  const differenceSd = Math.sqrt((2 * meanVariance(NOISE_MODELS.rubric)) / search.samples);
  const detectable = TRAIN_SIZES.map((n) => ({
    n,
    effect: product.detectableEffect(n, differenceSd, search.confidence),
  }));
  const worstScreen = powers.reduce((a, b) =>
    b.result.unscreened.kept - b.result.screened.kept > a.result.unscreened.kept - a.result.screened.kept
      ? b
      : a,
  );
  const fitting = sizesRows.filter((row) => row.at(-1) === 'met').map((row) => row[1]);
  return [
    `Reading. On proposals that change nothing the paired rule keeps ${range(pairedNull)}, ${
      Math.max(...pairedNull) <= limit / 2
        ? 'under half of'
        : Math.max(...pairedNull) <= limit
          ? 'within'
          : 'ABOVE'
    } its ${pct(limit)} budget (each of its two looks is held to ` +
      `half the error, and a keep also needs a mean gain of min_effect and a holdout that holds); version 1 keeps ` +
      `${range(v1Null)} of the same proposals. Most neutral proposals end \`screened_out\` or \`inconclusive\`, ` +
      'not `discard`: the interval of a mean gain of 0 straddles 0, which is what "could not tell" means.',
    `Over whole runs of ${wholeRuns[0].iterations} neutral proposals, ${range(wholeRuns.map((r) => r.paired.any))} ` +
      `of paired runs keep at least one (${range(wholeRuns.map((r) => r.v1.any))} under version 1); per ` +
      `iteration fewer are kept than on fresh experiments (${range(wholeRuns.map((r) => r.paired.share))} and ` +
      `${range(wholeRuns.map((r) => r.v1.share))}), because a kept candidate's lucky evaluation becomes the ` +
      'record the next proposals must beat.',
    v1Ahead.length > 0
      ? `The price is power: version 1 keeps more of the truly better proposals in ${v1Ahead.length} of ` +
        `${powers.length} power rows (by up to ${signedPoints(biggestGap)}), because it keeps ` +
        `${ratio(mean(v1Null) / mean(pairedNull), 1)} times as many proposals that are not better; the paired ` +
        'rule answers `inconclusive` for many real gains instead.'
      : `The paired rule keeps at least as many truly better proposals as version 1 in every power row.`,
    `With one sample per case the smallest gain a one-sided test at confidence ${search.confidence} finds 8 times ` +
      `in 10 is large: detectableEffect ` +
      `(src/loop/paired.ts, power 0.8) gives ${detectable
        .map((d) => `${d.effect.toFixed(2)} at ${d.n} train cases`)
        .join(' and ')} for this noise (per-case difference sd ${ratio(differenceSd, 2)}), so gains of ` +
      `${GAINS.slice(0, -1).join(' and ')} are mostly missed by both; more cases or samples are the cure.`,
    worstLoss <= TARGET_POWER_LOSS
      ? `The minibatch saves generations and costs at most ${signedPoints(-worstLoss)} of power: both targets met.`
      : `The minibatch saves generations mostly by sparing neutral and worse proposals the rest of the cases and ` +
        `the retest. Its power cost misses the ${TARGET_POWER_LOSS} target at ${caseLabelOf(worstScreen.result)} ` +
        `cases: a true gain of ${worstScreen.gain.toFixed(2)} is screened out ` +
        `${pct(worstScreen.result.screened.screenedOut)} of the time, since the mean of ` +
        `${product.DEFAULT_MINIBATCH} per-case differences with one sample is that noisy; where the minibatch is ` +
        `most of the train cases the test that follows sees nearly the same differences, so the cost is small. ` +
        (fitting.length > 0
          ? `At ${largest} train cases a \`search.minibatch\` of ${fitting[0].replace(' (default)', '')} meets both targets in these runs.`
          : `No minibatch size tried (${MINIBATCH_SIZES.join(', ')}) meets both targets at ${largest} train cases.`),
  ];
}

function mean(values) {
  return sum(values) / values.length;
}

/**
 * The truth's variance of one sample's score, averaged over cases: E[q(1 − q)] / points for q
 * uniform on QUALITY_RANGE (E[q] = (a + b)/2, E[q²] = (b³ − a³) / 3(b − a)).
 */
function meanVariance(noise) {
  const [a, b] = QUALITY_RANGE;
  return ((a + b) / 2 - (b ** 3 - a ** 3) / (3 * (b - a))) / noise.points;
}

function caseLabelOf(result) {
  return `${result.cases.trainIds.length} + ${result.cases.holdoutIds.length}`;
}

/** "8.1% ±1.2" : a share with its 95% binomial half-width. */
function shareWithError(p, n) {
  return `${pct(p)} ±${(196 * Math.sqrt((p * (1 - p)) / n)).toFixed(1)}`;
}

function signedPoints(value) {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)} pts`;
}

// ─── Grouped noise (docs/design/paired-acceptance.md, "Groups of cases"): false keeps when cases share an effect
// Kept in its own section: the rows below use only the helpers above and their own functions.

const GROUP_COUNTS = [3, 6];
const GROUP_ICCS = [0.1, 0.5];
/** How the shared effect arises: drawn afresh at every evaluation, or a fixed true gain per group. */
const GROUP_SHARING = ['fresh', 'fixed'];

/** A standard normal draw (Box–Muller) from the benchmark's own PRNG. */
function normal(random) {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** Case k's group: round-robin over the case ids, so train and holdout each hold every group they can. */
function groupsOf(cases, groups) {
  return new Map(cases.allIds.map((id, i) => [id, `g${i % groups}`]));
}

/** Each case's score moved by its group's offset (unclipped, so a true gain of 0 stays exactly 0). */
function shifted(means, groupOf, offsets) {
  return new Map(
    [...means].map(([id, m]) => [id, { mean: m.mean + offsets.get(groupOf.get(id)), samples: m.samples }]),
  );
}

function groupOffsets(random, groups, sd) {
  return new Map(Array.from({ length: groups }, (_, g) => [`g${g}`, sd * normal(random)]));
}

/**
 * The paired flow of accept-paired.ts (as pairedRule above) with the intervals the product takes
 * when groups are declared: groupedInterval on the per-case differences with each case's group.
 * The screen stays the mean over cases, as in the product.
 */
function groupedRule(product, search, cases, draws, iteration, groupOf) {
  const size = product.minibatchSize(search, cases.train.length);
  const batch =
    size < cases.train.length
      ? product.drawMinibatch(cases.train, size, search.seed, iteration).map((c) => c.id)
      : null;
  if (
    batch &&
    !product.passesScreen(product.pairCases(batch, draws.candidate, draws.incumbent).map((p) => p.d))
  )
    return { status: 'screened_out' };
  const confidence = product.lookConfidence(search.confidence, search.retest);
  const interval = (ids, candidate, incumbent) =>
    product.groupedInterval(
      product.pairCases(ids, candidate, incumbent).map((p) => ({ d: p.d, group: groupOf.get(p.caseId) })),
      confidence,
    );
  const look = (candidate, incumbent, lastLook) =>
    product.decidePaired({
      train: interval(cases.trainIds, candidate, incumbent),
      holdout: cases.holdoutIds.length > 0 ? interval(cases.holdoutIds, candidate, incumbent) : null,
      candidateEligible: true,
      incumbentEligible: true,
      minEffect: search.min_effect,
      lastLook,
    });
  const first = look(draws.candidate, draws.incumbent, search.retest === 0);
  if (first.status !== 'retest') return { status: first.status };
  return {
    status: look(
      product.poolCaseMeans(draws.candidate, draws.candidateRetest),
      product.poolCaseMeans(draws.incumbent, draws.incumbentRetest),
      true,
    ).status,
  };
}

/**
 * `decisions` fresh experiments with true gain 0 whose cases come in `groups` groups, judged with
 * the groups declared (groupedRule) and not declared (pairedRule: version 2's rule) on the same
 * draws. `icc` is the intra-class correlation of the per-case differences within a group:
 * fresh — every evaluation (each side's first evaluation and each retest) draws an offset per
 * group with variance τ² = icc/(1 − icc) · σ², σ² the per-sample score variance, so the
 * difference's shared part 2τ² against its own 2σ²; fixed — the candidate has a true gain per
 * group, drawn once per experiment from N(0, 2σ² · icc/(1 − icc)), zero-mean over the population
 * of groups (the groups of one experiment are a draw from it, not centred).
 */
function simulateGrouped(product, search, setting, decisions) {
  const cases = experimentCases(product, search, setting.train);
  const groupOf = groupsOf(cases, setting.groups);
  const random = createRandom(seedOf(JSON.stringify({ grouped: setting })));
  const sigma2 = meanVariance(setting.noise) / search.samples;
  const tau = Math.sqrt((setting.icc / (1 - setting.icc)) * sigma2);
  const kept = { declared: 0, undeclared: 0 };
  for (let k = 0; k < decisions; k++) {
    const truth = drawTruth(random, cases.splitOf, { gain: 0, churn: 0 });
    const fixed = setting.sharing === 'fixed' ? groupOffsets(random, setting.groups, Math.SQRT2 * tau) : null;
    const none = new Map(Array.from({ length: setting.groups }, (_, g) => [`g${g}`, 0]));
    const draw = (side, samples) => {
      const means = evaluate(random, truth[side], samples, setting.noise);
      if (fixed) return shifted(means, groupOf, side === 'candidate' ? fixed : none);
      return shifted(means, groupOf, groupOffsets(random, setting.groups, tau));
    };
    const draws = {
      incumbent: draw('incumbent', search.samples),
      candidate: draw('candidate', search.samples),
      candidateRetest: draw('candidate', search.retest),
      incumbentRetest: draw('incumbent', search.retest),
    };
    if (groupedRule(product, search, cases, draws, k + 1, groupOf).status === 'keep') kept.declared++;
    if (pairedRule(product, search, cases, draws, k + 1, true).status === 'keep') kept.undeclared++;
  }
  return { cases, decisions, declared: kept.declared / decisions, undeclared: kept.undeclared / decisions };
}

/** Wilson's 95% interval of a share of n: "[lo, hi]" in percent. */
function wilson(p, n, z = 1.96) {
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return `[${pct(Math.max(0, centre - half))}, ${pct(Math.min(1, centre + half))}]`;
}

/** The grouped-noise rows: header, rows, the noise statement and the findings. */
function groupedNoiseRows(product, search, smoke, limit) {
  const decisions = smoke ? 60 : GROUPED_DECISIONS;
  const header = [
    'groups, ICC, shared effect',
    'train + holdout cases (groups on train / holdout)',
    'kept, groups declared',
    '95% Wilson',
    'kept, not declared = version 2',
    '95% Wilson',
    `declared <= ${pct(limit)}`,
  ];
  const results = [];
  for (const sharing of GROUP_SHARING)
    for (const groups of GROUP_COUNTS)
      for (const icc of GROUP_ICCS)
        for (const train of TRAIN_SIZES) {
          const setting = { train, groups, icc, sharing, noise: NOISE_MODELS.rubric };
          results.push({ setting, result: simulateGrouped(product, search, setting, decisions) });
        }
  const groupsOn = (r, ids) => new Set(ids.map((id) => groupsOf(r.cases, r.groups).get(id))).size;
  const rows = results.map(({ setting, result: r }) => [
    `${setting.groups} groups, ICC ${setting.icc}, ${setting.sharing === 'fresh' ? 'fresh per evaluation' : 'fixed per group'}`,
    `${caseLabelOf(r)} (${groupsOn({ ...r, groups: setting.groups }, r.cases.trainIds)} / ${groupsOn({ ...r, groups: setting.groups }, r.cases.holdoutIds)})`,
    pct(r.declared),
    wilson(r.declared, r.decisions),
    pct(r.undeclared),
    wilson(r.undeclared, r.decisions),
    verdict(r.declared <= limit),
  ]);
  const declared = results.map((x) => x.result.declared);
  const undeclared = results.map((x) => x.result.undeclared);
  const noise =
    `Grouped noise: true gain 0; cases assigned to groups round-robin by id; each case's score is the ` +
    `rubric draw above plus a group offset added unclipped (so the true gain stays exactly 0). ICC is the ` +
    `intra-class correlation of per-case differences within a group. Fresh per evaluation: every evaluation ` +
    `of a side (first look and retest) draws a normal offset per group with variance ICC/(1 − ICC) · σ², ` +
    `σ² = ${ratio(meanVariance(NOISE_MODELS.rubric), 4)} the per-sample score variance. Fixed per group: the ` +
    `candidate has a true gain per group, drawn once per experiment from a normal of variance ` +
    `2σ² · ICC/(1 − ICC), zero-mean over groups but not centred within an experiment. ${decisions} decisions ` +
    'per row, the screen, both looks and the retest as in the rows above; both columns on the same draws.';
  const findings = [
    `Grouped noise: with the groups declared the paired rule kept ${pct(Math.min(...declared))}–${pct(Math.max(...declared))} ` +
      `of proposals with no true gain (limit ${pct(limit)}: ${verdict(Math.max(...declared) <= limit)}); with the same ` +
      `groups not declared it kept ${pct(Math.min(...undeclared))}–${pct(Math.max(...undeclared))}, ` +
      `${undeclared.filter((u) => u > limit).length} of ${undeclared.length} rows above the limit.`,
  ];
  return { header, rows, noise, findings };
}

await runBenchmark(
  {
    key: 'acceptance',
    script: 'bench/acceptance.mjs',
    title: '7. Acceptance: paired statistics vs version 1',
  },
  async ({ smoke }) => {
    const product = await loadProduct();
    const search = product.Search.parse({});
    if (product.acceptanceOf(search) !== 'paired') throw new Error('the default acceptance is not paired');
    const decisions = smoke ? 60 : 2000;
    // A setting met twice (the mix reuses the A/A and power rows) is simulated once.
    const known = new Map();
    const run = (setting, minibatch) => {
      const key = JSON.stringify([setting, minibatch]);
      const settings = minibatch === undefined ? search : { ...search, minibatch };
      if (!known.has(key)) known.set(key, simulate(product, settings, setting, decisions));
      return known.get(key);
    };
    const rubric = NOISE_MODELS.rubric;
    const confidenceLimit = 1 - search.confidence;

    // A/A: nothing about the proposal matters.
    const nulls = [];
    for (const [noise, churn, what] of [
      [rubric, 0, 'identical truth, rubric'],
      [NOISE_MODELS.passFail, 0, 'identical truth, pass/fail'],
      [rubric, CHURN, `churn ±${CHURN} (mean exactly 0), rubric`],
    ])
      for (const train of TRAIN_SIZES) nulls.push({ what, result: run({ train, gain: 0, churn, noise }) });
    const aaHeader = [
      'proposals (true gain 0)',
      'train + holdout cases',
      'paired kept',
      'inconclusive',
      'discarded',
      'holdout fail',
      'screened out',
      'retested',
      'version 1 kept',
      'version 1 median margin',
      `paired kept <= ${pct(confidenceLimit)}`,
    ];
    const aaRows = nulls.map(({ what, result: r }) => [
      what,
      caseLabelOf(r),
      shareWithError(r.screened.kept, r.decisions),
      pct(r.screened.inconclusive),
      pct(r.screened.discarded),
      pct(r.screened.holdoutFail),
      pct(r.screened.screenedOut),
      pct(r.screened.retested),
      shareWithError(r.v1.kept, r.decisions),
      ratio(r.v1MedianMargin, 3),
      verdict(r.screened.kept <= confidenceLimit),
    ]);
    const aaWorst = Math.max(...nulls.map((n) => n.result.screened.kept));
    const aaWorstUnscreened = Math.max(...nulls.map((n) => n.result.unscreened.kept));

    // A/A over whole runs: one incumbent record shared by a run's decisions.
    const runCount = smoke ? 10 : 300;
    const iterations = smoke ? 5 : 20;
    const runsHeader = [
      'runs of proposals with true gain 0',
      'train + holdout cases',
      'paired kept',
      'paired runs with a keep',
      'paired most keeps in a run',
      'version 1 kept',
      'version 1 runs with a keep',
      'version 1 most keeps in a run',
    ];
    const runsRows = [];
    const wholeRuns = [];
    for (const noise of [rubric, NOISE_MODELS.passFail])
      for (const train of TRAIN_SIZES) {
        const r = simulateRuns(product, search, { train, gain: 0, churn: 0, noise }, runCount, iterations);
        wholeRuns.push(r);
        runsRows.push([
          `${r.runs} runs × ${r.iterations} iterations, ${noise === rubric ? 'rubric' : 'pass/fail'}`,
          caseLabelOf(r),
          pct(r.paired.share),
          pct(r.paired.any),
          r.paired.most,
          pct(r.v1.share),
          pct(r.v1.any),
          r.v1.most,
        ]);
      }

    // Power: a real gain on every case.
    const powers = [];
    for (const train of TRAIN_SIZES)
      for (const gain of GAINS) powers.push({ gain, result: run({ train, gain, churn: 0, noise: rubric }) });
    const powerHeader = [
      'train + holdout cases',
      'true gain',
      'paired kept (minibatch)',
      'paired kept (no minibatch)',
      'screen costs',
      'paired inconclusive',
      'version 1 kept',
      `screen within ${TARGET_POWER_LOSS}`,
    ];
    const powerRows = powers.map(({ gain, result: r }) => [
      caseLabelOf(r),
      gain.toFixed(2),
      pct(r.screened.kept),
      pct(r.unscreened.kept),
      signedPoints(r.screened.kept - r.unscreened.kept),
      pct(r.screened.inconclusive),
      pct(r.v1.kept),
      verdict(r.unscreened.kept - r.screened.kept <= TARGET_POWER_LOSS),
    ]);
    const worstPowerLoss = Math.max(...powers.map((p) => p.result.unscreened.kept - p.result.screened.kept));

    // Generations per iteration over a mix of proposals.
    const callsHeader = [
      'train + holdout cases',
      'proposal',
      'share of mix',
      'paired (minibatch)',
      'paired (no minibatch)',
      'version 1',
      'screened out',
      'retested (minibatch)',
    ];
    const callsRows = [];
    const mixes = [];
    for (const train of TRAIN_SIZES) {
      const totals = { screened: 0, unscreened: 0, v1: 0 };
      let label = '';
      for (const kind of MIX) {
        const r = run({ train, gain: kind.gain, churn: 0, noise: rubric });
        label = caseLabelOf(r);
        for (const rule of Object.keys(totals)) totals[rule] += kind.share * r[rule].calls;
        callsRows.push([
          label,
          kind.label,
          pct(kind.share),
          ratio(r.screened.calls, 1),
          ratio(r.unscreened.calls, 1),
          ratio(r.v1.calls, 1),
          pct(r.screened.screenedOut),
          pct(r.screened.retested),
        ]);
      }
      const saved = 1 - totals.screened / totals.unscreened;
      mixes.push({ label, totals, saved });
      callsRows.push([
        label,
        '**mix**',
        '100%',
        ratio(totals.screened, 1),
        ratio(totals.unscreened, 1),
        ratio(totals.v1, 1),
        '',
        `saved ${pct(saved)}: ${verdict(saved >= TARGET_CALLS_SAVED)}`,
      ]);
    }

    // What a larger minibatch buys back at the larger case set (search.minibatch is a setting).
    const largest = TRAIN_SIZES.at(-1);
    const sizesHeader = [
      'train + holdout cases',
      'search.minibatch',
      ...GAINS.map((g) => `power cost at ${g.toFixed(2)}`),
      'generations per iteration (mix)',
      'saved vs no minibatch',
      'both targets',
    ];
    const sizesRows = MINIBATCH_SIZES.map((size) => {
      const minibatch = size === product.DEFAULT_MINIBATCH ? undefined : size;
      const losses = GAINS.map((gain) => {
        const r = run({ train: largest, gain, churn: 0, noise: rubric }, minibatch);
        return r.unscreened.kept - r.screened.kept;
      });
      let screened = 0;
      let unscreened = 0;
      let label = '';
      for (const kind of MIX) {
        const r = run({ train: largest, gain: kind.gain, churn: 0, noise: rubric }, minibatch);
        label = caseLabelOf(r);
        screened += kind.share * r.screened.calls;
        unscreened += kind.share * r.unscreened.calls;
      }
      const saved = 1 - screened / unscreened;
      const met = saved >= TARGET_CALLS_SAVED && Math.max(...losses) <= TARGET_POWER_LOSS;
      return [
        label,
        minibatch === undefined ? `${size} (default)` : String(size),
        ...losses.map((loss) => signedPoints(-loss)),
        ratio(screened, 1),
        pct(saved),
        verdict(met),
      ];
    });

    const grouped = groupedNoiseRows(product, search, smoke, confidenceLimit);

    const parameters = [
      `Product settings: \`search\` defaults read from dist's schema: acceptance ${product.acceptanceOf(search)}, ` +
        `confidence ${search.confidence} (each of the two looks at ${product.lookConfidence(search.confidence, search.retest)}), ` +
        `min_effect ${search.min_effect}, retest ${search.retest}, samples ${search.samples}, ` +
        `minibatch min(${product.DEFAULT_MINIBATCH}, train cases), holdout ${search.holdout}, ` +
        `candidates ${search.candidates}, seed ${search.seed}; version 1: min_improvement ${search.min_improvement}, ` +
        `noise_repeats ${product.baselineRepeats(search, 'margin')}, confirm ${search.confirm}.`,
      `Truth (the benchmark's, never shown to the product): each case's incumbent quality uniform on ` +
        `[${QUALITY_RANGE.join(', ')}]; the candidate's is that plus the true gain on every case ` +
        `(plus, in the churn rows, a per-case effect uniform on ±${CHURN}, centred to sum to 0 per split). ` +
        `Noise: ${rubric.label}; the pass/fail rows: ${NOISE_MODELS.passFail.label}. ` +
        `Cases split by the product (assignSplits, holdout ${search.holdout}). No gate checks fail.`,
      `${decisions} decisions per row, each a fresh experiment: the baseline (version 1: ` +
        `${product.baselineRepeats(search, 'margin')} evaluations, mean and margin; paired: its first ` +
        `evaluation only), then one proposal judged by every rule on the same draws.`,
      `Calls = generations (cases × samples per evaluation); with a model judge each is judged once more, so ` +
        `judge calls follow the same ratios. Per iteration: the candidate's minibatch, the rest of the cases ` +
        `(train and holdout) when the screen passes, and on a retest both sides' retest samples on every case; ` +
        `the incumbent is not re-evaluated otherwise; version 1 evaluates every case once (no confirm). ` +
        `Mix: ${MIX.map((k) => `${pct(k.share)} ${k.label}`).join(', ')}.`,
      'How the paired flow is driven: src/loop/accept-paired.ts needs a LoopRun (an experiment, a recorder, ' +
        'model calls), so the benchmark calls the pure functions it calls, in its order: drawMinibatch → ' +
        'passesScreen → lookConfidence, pairedInterval and decidePaired on train and holdout → on `retest` ' +
        'poolCaseMeans and the last look. Version 1: marginFrom and baselineFrom on the baseline repeats, then decide.',
    ];
    const findings = [
      `A/A: the paired rule kept at most ${pct(aaWorst)} of proposals with no true gain ` +
        `(${pct(aaWorstUnscreened)} without the minibatch); limit ${pct(confidenceLimit)}: ` +
        `${verdict(aaWorst <= confidenceLimit)}.`,
      `Screening: ${mixes
        .map(
          (m) =>
            `${m.label} cases ${ratio(m.totals.screened, 1)} vs ${ratio(m.totals.unscreened, 1)} generations per iteration (${pct(m.saved)} fewer)`,
        )
        .join('; ')}; target >= ${pct(TARGET_CALLS_SAVED)}: ` +
        `${verdict(mixes.every((m) => m.saved >= TARGET_CALLS_SAVED))}. ` +
        `Largest power cost of the minibatch ${signedPoints(-worstPowerLoss)}; target <= ${TARGET_POWER_LOSS * 100} pts: ` +
        `${verdict(worstPowerLoss <= TARGET_POWER_LOSS)}.`,
      ...reading({ nulls, wholeRuns, powers, sizesRows, largest, product, search, limit: confidenceLimit }),
      ...grouped.findings,
    ];
    const text = [
      ...parameters,
      '',
      'A/A',
      textTable(aaHeader, aaRows),
      '',
      'A/A over whole runs',
      textTable(runsHeader, runsRows),
      '',
      'Power',
      textTable(powerHeader, powerRows),
      '',
      'Generations per iteration',
      textTable(
        callsHeader,
        callsRows.map((row) => row.map((cell) => String(cell).replaceAll('**', ''))),
      ),
      '',
      'Minibatch size',
      textTable(sizesHeader, sizesRows),
      '',
      'A/A under grouped noise',
      textTable(grouped.header, grouped.rows),
      '',
      ...findings,
    ].join('\n');
    const markdown = [
      ...parameters.flatMap((p) => [p, '']),
      '**A/A** (proposals whose true gain is 0; ± is the 95% binomial half-width):',
      '',
      markdownTable(aaHeader, aaRows),
      '',
      `**A/A over whole runs** (each run: the baseline, then ${iterations} proposals with true gain 0 against one ` +
        "incumbent record, replaced by a kept candidate's evaluation; version 1 keeps its baseline margin):",
      '',
      markdownTable(runsHeader, runsRows),
      '',
      '**Power** (a true gain on every case, the rubric noise):',
      '',
      markdownTable(powerHeader, powerRows),
      '',
      '**Generations per iteration** (the rubric noise):',
      '',
      markdownTable(callsHeader, callsRows),
      '',
      `**Minibatch size** (${largest} train cases; power cost = kept with the minibatch − kept without, on the same draws):`,
      '',
      markdownTable(sizesHeader, sizesRows),
      '',
      '**A/A under grouped noise** (true gain 0; cases in groups that share an effect; both columns on the same draws):',
      '',
      grouped.noise,
      '',
      markdownTable(grouped.header, grouped.rows),
      '',
      ...findings.flatMap((f) => [f, '']),
    ].join('\n');
    return { text, markdown };
  },
);
