/**
 * Plays a fixture scenario the way the loop would: the events of each iteration (phases,
 * proposals, evaluations, spend, the decision from the real docs/design/scoring-and-decisions.md
 * `decide`, commits) and the artifact files each one leaves, on a clock that advances a little with
 * every event.
 */
import { decide, marginFrom } from '../../src/loop/decide.js';
import { sha256Hex } from '../../src/sha256.js';
import { stampEvent, type RunEvent, type RunEventBody } from '../../src/run/events.js';
import { candidatePaths, iterationPaths } from '../../src/run/paths.js';
import { reduceRun } from '../../src/run/reducer.js';
import {
  mean,
  promptFor,
  round4,
  runChecks,
  scoreCandidate,
  writeEmail,
  writeGrading,
  writeJudge,
} from './fixture-outputs.js';
import { CASES, type IterationPlan } from './fixture-scenarios.js';

interface Scored {
  k: number;
  train: number;
  holdout: number | null;
  gate: string | null;
  chars: number;
  prompt: string;
}

const ROOT = '/r';
const COMMITS = ['4b1d3a9e2f', '9e7c21d0ab'];

export class FixturePlanner {
  readonly events: RunEvent[] = [];
  readonly files = new Map<string, string>();
  incumbent = { iteration: 0, train: 0, holdout: 0 as number | null, prompt: '', eligible: true };
  private clock: number;
  private margin = { train: 0.005, holdout: 0.005 };
  private readonly commits = [...COMMITS];

  constructor(
    start: string,
    private readonly withJudge: boolean,
    private readonly repeats: number,
  ) {
    this.clock = Date.parse(start);
  }

  emit(body: RunEventBody, seconds = 2): void {
    this.clock += seconds * 1000;
    this.events.push(stampEvent(body, new Date(this.clock)) as RunEvent);
  }

  /** `path` is under the planner's root (/r/...); stored relative to the run folder. */
  put(path: string, value: unknown): void {
    const text = typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`;
    this.files.set(path.slice(`${ROOT}/`.length), text);
  }

  iteration(iteration: number, step: IterationPlan): void {
    const baseline = iteration === 0;
    this.emit({ type: 'iteration_started', iteration, strategy: step.strategy ?? 'focused' });
    this.emit({ type: 'phase', iteration, phase: baseline ? 'baseline' : 'mutating' });
    if (!baseline) this.propose(iteration, step);
    const duplicate = step.candidates.every((c) => c.duplicate);
    const evaluated = baseline
      ? Array.from({ length: this.repeats }, () => step.candidates[0]!)
      : step.candidates;
    const scored = duplicate || step.error?.files === 'none' ? [] : this.evaluate(iteration, step, evaluated);
    const cost = baseline ? 0.093 : 0.041 + 0.013 * step.candidates.length;
    this.spend(iteration, cost, evaluated.length, baseline ? 0 : step.candidates.length);
    const seconds = baseline ? 48 : 20 + 7 * iteration;
    if (baseline) this.finishBaseline(scored, cost, seconds);
    else if (duplicate || step.error) this.finishUnscored(iteration, step, duplicate, cost, seconds);
    else this.decideIteration(iteration, step, scored, cost, seconds);
  }

  /** Leaves the next iteration in progress, part-way through generating. */
  inProgress(iteration: number): void {
    this.emit({ type: 'iteration_started', iteration, strategy: 'focused' });
    this.emit({ type: 'phase', iteration, phase: 'mutating' });
    this.emit({ type: 'phase', iteration, phase: 'generating', candidate: 0, done: 2, total: 3 }, 6);
  }

  /** The fresh final evaluation (a little below the figures seen during the run) and the stop. */
  stop(lastIteration: number): void {
    this.emit({ type: 'phase', iteration: lastIteration, phase: 'final' }, 3);
    const baseline = reduceRun(this.events).baseline!;
    const best = this.incumbent;
    this.emit(
      {
        type: 'final_evaluation',
        baseline: { train: round4(baseline.train! - 0.004), holdout: baseline.holdout },
        best: {
          iteration: best.iteration,
          train: round4(best.train - 0.011),
          holdout: best.holdout === null ? null : round4(best.holdout - 0.006),
        },
      },
      20,
    );
    this.emit(
      {
        type: 'run_stopped',
        reason: 'iterations',
        message: `reached the iteration budget (${lastIteration})`,
      },
      1,
    );
  }

  private propose(iteration: number, step: IterationPlan): void {
    const proposals = step.candidates.map((c, k) => ({
      candidate: k,
      hypothesis: c.hypothesis,
      promptSha256: sha256Hex(promptFor(c.traits)),
      duplicate: c.duplicate ?? false,
    }));
    for (const proposal of proposals) this.emit({ type: 'proposal', iteration, ...proposal });
    if (!step.noDecisionFiles) {
      this.put(iterationPaths(ROOT, iteration).mutation, { strategy: step.strategy ?? 'focused', proposals });
    }
  }

  private evaluate(iteration: number, step: IterationPlan, evaluated: IterationPlan['candidates']): Scored[] {
    const baseline = iteration === 0;
    const phase = (
      body: Omit<Extract<RunEventBody, { type: 'phase' }>, 'type' | 'iteration'>,
      seconds?: number,
    ) => this.emit({ type: 'phase', iteration, ...body }, seconds);
    phase({ phase: 'generating', candidate: 0, done: 0, total: CASES.length * evaluated.length });
    phase({ phase: 'checking' }, 1);
    if (this.withJudge) {
      phase({ phase: 'judging', candidate: 0, done: 0, total: CASES.length }, 5);
      phase({ phase: 'grading' }, 4);
    }
    const scored: Scored[] = [];
    evaluated.forEach((spec, k) => {
      const prompt = promptFor(spec.traits);
      const cp = candidatePaths(ROOT, iteration, k);
      this.put(cp.prompt, prompt);
      const jitter = baseline ? k : 0;
      const outputs = CASES.map((c) => ({ c, text: writeEmail(spec.traits, c) }));
      for (const { c, text } of outputs) this.put(cp.output(c.id, 0), text);
      const checks = outputs.map(({ c, text }) => ({ caseId: c.id, sample: 0, outcomes: runChecks(text) }));
      this.put(cp.checks, { results: checks });
      const put = (path: string, value: unknown) => this.put(path, value);
      if (step.error?.kind === 'judge_error') phase({ phase: 'judging', candidate: k }, 1);
      else if (this.withJudge) {
        writeJudge(put, cp, outputs, iteration * 7 + k, jitter, spec.traits);
        writeGrading(put, cp, outputs, iteration);
      }
      if (step.error) return;
      // The part of evaluation.json the report reads (a real one also holds outputs, checks and scores).
      this.put(cp.evaluation, { evaluation: { cases: CASES.map((c) => ({ id: c.id, split: c.split })) } });
      const score = scoreCandidate(spec.traits, outputs, jitter, this.withJudge, iteration);
      const gate = checks.find((g) => g.outcomes.some((o) => o.gate && !o.pass));
      const gateFailure = gate ? `starts-with "Subject:" failed on ${gate.caseId}` : null;
      this.emit(
        {
          type: 'candidate_evaluated',
          iteration,
          candidate: k,
          ...(baseline ? { repeat: k } : {}),
          scores: score.scores,
          gateFailure,
          criteria: this.withJudge ? score.criteria : {},
          costUsd: 0.011,
        },
        1,
      );
      const { total: train } = score.scores.train;
      scored.push({
        k,
        train: train!,
        holdout: score.scores.holdout.total,
        gate: gateFailure,
        chars: prompt.length,
        prompt,
      });
    });
    return scored;
  }

  private spend(iteration: number, cost: number, evaluated: number, proposals: number): void {
    const usd = (share: number) => Number((cost * share).toFixed(4));
    this.emit({
      type: 'spend',
      role: 'generator',
      usd: usd(0.55),
      calls: CASES.length * evaluated,
      iteration,
    });
    if (proposals > 0)
      this.emit({ type: 'spend', role: 'mutator', usd: usd(0.25), calls: proposals, iteration });
    if (this.withJudge)
      this.emit({ type: 'spend', role: 'judge', usd: usd(0.2), calls: CASES.length * evaluated, iteration });
  }

  private finishBaseline(scored: Scored[], cost: number, seconds: number): void {
    const trains = scored.map((s) => s.train);
    const holdouts = scored.map((s) => s.holdout).filter((h): h is number => h !== null);
    this.margin = marginFrom('auto', { train: trains, holdout: holdouts });
    const train = mean(trains);
    const holdout = holdouts.length > 0 ? mean(holdouts) : null;
    const repeats = scored.map((s) => ({ train: s.train, holdout: s.holdout }));
    this.emit({ type: 'noise_margin', iteration: 0, ...this.margin, repeats, mean: { train, holdout } });
    const prompt = scored[0]!.prompt;
    this.incumbent = { iteration: 0, train, holdout, prompt, eligible: scored.every((s) => s.gate === null) };
    this.put(iterationPaths(ROOT, 0).decision, {
      status: 'baseline',
      reason: `baseline over ${scored.length} evaluation${scored.length === 1 ? '' : 's'}`,
      margin: this.margin,
      scores: { train, holdout },
    });
    this.emit(
      {
        type: 'iteration_finished',
        iteration: 0,
        status: 'baseline',
        candidate: 0,
        train,
        holdout,
        incumbentBefore: null,
        delta: null,
        hypothesis: null,
        promptSha256: sha256Hex(prompt),
        costUsd: cost,
        seconds,
      },
      1,
    );
  }

  private finishUnscored(
    iteration: number,
    step: IterationPlan,
    duplicate: boolean,
    cost: number,
    seconds: number,
  ): void {
    const status = duplicate ? 'duplicate' : 'error';
    const first = step.candidates[0]!;
    if (!step.noDecisionFiles) {
      this.put(
        iterationPaths(ROOT, iteration).decision,
        duplicate
          ? { status, reason: 'every proposal repeated a prompt already tried' }
          : { status, kind: step.error!.kind, message: step.error!.message },
      );
    }
    this.emit(
      {
        type: 'iteration_finished',
        iteration,
        status,
        candidate: null,
        train: null,
        holdout: null,
        incumbentBefore: this.incumbent.train,
        delta: null,
        ...(step.error ? { errorKind: step.error.kind, message: step.error.message } : {}),
        hypothesis: first.hypothesis,
        promptSha256: duplicate ? sha256Hex(promptFor(first.traits)) : null,
        costUsd: cost,
        seconds,
      },
      1,
    );
  }

  private decideIteration(
    iteration: number,
    step: IterationPlan,
    scored: Scored[],
    cost: number,
    seconds: number,
  ): void {
    const best = [...scored].sort(
      (a, b) => Number(a.gate !== null) - Number(b.gate !== null) || b.train - a.train,
    )[0]!;
    this.emit({ type: 'phase', iteration, phase: 'deciding' }, 1);
    const incumbent = this.incumbent;
    const decision = decide({
      candidate: {
        train: best.train,
        holdout: best.holdout,
        eligible: best.gate === null,
        chars: best.chars,
      },
      incumbent: {
        train: incumbent.train,
        holdout: incumbent.holdout,
        eligible: incumbent.eligible,
        chars: incumbent.prompt.length,
      },
      margin: this.margin,
    });
    if (!step.noDecisionFiles) {
      this.put(iterationPaths(ROOT, iteration).decision, {
        status: decision.status,
        reason: decision.reason,
        margin: this.margin,
        candidate: best.k,
        scores: { train: best.train, holdout: best.holdout },
      });
    }
    if (decision.status === 'keep') {
      this.emit({ type: 'phase', iteration, phase: 'committing', candidate: best.k });
      this.emit({ type: 'commit', iteration, sha: this.commits.shift()!.padEnd(40, '7') }, 1);
    }
    this.emit(
      {
        type: 'iteration_finished',
        iteration,
        status: decision.status,
        candidate: best.k,
        train: best.train,
        holdout: best.holdout,
        incumbentBefore: incumbent.train,
        delta: decision.delta,
        hypothesis: step.candidates[best.k]!.hypothesis,
        // As the loop journals it: a decided iteration's message is its decision's reason.
        message: decision.reason,
        promptSha256: sha256Hex(best.prompt),
        costUsd: cost,
        seconds,
      },
      1,
    );
    if (decision.status === 'keep') {
      this.incumbent = {
        iteration,
        train: best.train,
        holdout: best.holdout,
        prompt: best.prompt,
        eligible: true,
      };
    }
  }
}
