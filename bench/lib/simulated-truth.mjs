/**
 * Simulated experiments whose truth the acceptance benchmark decides. Every case has
 * a true quality for the incumbent and one for the candidate (the expected score of one
 * sample); a sample's score is the share of a rubric's points that pass, each point passing
 * with the case's true quality. The benchmark hands the product's decision functions only the
 * per-case scores drawn here, never the truth, and this module imports nothing of the product:
 * what is true and how the product decides are separate code.
 */

/** A seeded PRNG of the benchmark's own (mulberry32): uniform floats in [0, 1). */
export function createRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The noise of one sample's score. */
export const NOISE_MODELS = {
  rubric: {
    key: 'rubric',
    points: 5,
    label: '5-point rubric (a sample scores the share of 5 points that pass; sd ≈ 0.2 per sample)',
  },
  passFail: {
    key: 'passFail',
    points: 1,
    label: 'pass/fail (a sample scores 0 or 1; sd ≈ 0.5 per sample)',
  },
};

/** The incumbent's true quality of a case: uniform on [0.2, 0.7] (some cases hard, some easy). */
export const QUALITY_RANGE = [0.2, 0.7];

/**
 * One simulated experiment's truth: `truth.incumbent` and `truth.candidate`, each a Map from
 * case id to true quality. The candidate is the incumbent plus `gain` on every case, plus (when
 * `churn` > 0) a per-case effect drawn uniformly on [−churn, churn] and centred so that it sums
 * to exactly 0 within each split: a change that helps some cases and hurts others while its
 * true mean gain on train and on holdout stays exactly `gain`. The ranges keep every quality
 * inside [0, 1] for |gain| ≤ 0.1 and churn ≤ 0.1, so no clipping bends the truth.
 */
export function drawTruth(random, splits, { gain, churn }) {
  const incumbent = new Map();
  const [low, high] = QUALITY_RANGE;
  for (const id of splits.keys()) incumbent.set(id, low + (high - low) * random());
  const effects = new Map();
  for (const split of new Set(splits.values())) {
    const ids = [...splits].filter(([, s]) => s === split).map(([id]) => id);
    const raw = ids.map(() => (churn > 0 ? churn * (2 * random() - 1) : 0));
    const centre = raw.reduce((sum, e) => sum + e, 0) / ids.length;
    ids.forEach((id, i) => {
      effects.set(id, gain + (raw[i] - centre));
    });
  }
  const candidate = new Map([...incumbent].map(([id, q]) => [id, q + effects.get(id)]));
  for (const q of candidate.values())
    if (!(q >= 0 && q <= 1)) throw new Error(`a true quality left [0, 1]: ${q}; narrow gain or churn`);
  return { incumbent, candidate };
}

/**
 * One evaluation of every case with `samples` samples each: per case the mean sample score and
 * the sample count (the shape the product's per-case scores have).
 */
export function evaluate(random, truth, samples, noise) {
  const means = new Map();
  for (const [id, quality] of truth) {
    let passed = 0;
    for (let s = 0; s < samples * noise.points; s++) if (random() < quality) passed++;
    means.set(id, { mean: passed / (samples * noise.points), samples });
  }
  return means;
}
