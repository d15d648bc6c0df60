/**
 * The run record's format version. A run records the version it was started with in
 * `manifest.json` (`version`) and on every event it journals (`v`); resume keeps writing
 * under that version, so a run follows one set of rules from start to end. This build reads
 * every version up to its own and refuses a newer one rather than misread it.
 *
 * Each change to what a run records bumps this once and says here what it added; code that
 * behaves differently for a newer version asks `recorder.version` (the run's, not the build's).
 *
 *   1  the first format: manifest.json, events.jsonl (events.ts), results.tsv, iterations/.
 *   2  paired acceptance (docs/design/paired-acceptance.md): statuses `inconclusive` and `screened_out`, the phase
 *      `retesting`; `iteration_finished.paired` (the decision's intervals and per-case
 *      tally) and `.screen` (the minibatch and the calls it saved); results.tsv columns
 *      `delta_lo`, `delta_hi`, `n_cases`; decision.json `paired` (per-case differences);
 *      iterations/NNNN/incumbent-retest/ and candidates/<k>/retest/; the sealed test split:
 *      case split `test`, `final_evaluation.baseline.test`/`.best.test`, evaluation.json
 *      `scores.test`. A version-1 run resumed by this build keeps version 1's margin rule.
 *   3  prompt shapes (docs/design/prompt-shapes.md): manifest.json `shape` (the fixed parts, output schema and tools
 *      that the fingerprint covers), case hashes over their `messages`, evaluation.json
 *      `outputs[].toolCalls`, and output files that end with the calls' JSON line. With several
 *      optimisable parts (written only by runs that have them): the loop's prompt files hold a
 *      parts document (`<!-- part: name -->` sections), manifest.json `experiment.parts`, and
 *      keep commits an `Autoresearch-Parts` trailer.
 *   4  judge reliability (docs/design/judge-reliability.md): the run kind `calibrate` (manifest and `run_started.kind`),
 *      its event `calibrated` and file calibration.json; drift anchors: events `judge_noise` and
 *      `judge_drift` (a version-3 run resumed by this build makes no drift checks); judge panels:
 *      `candidate_evaluated.judgeAlpha`, evaluation.json `judge.panel`; checklist answers:
 *      evaluation.json `judge.scores[].items`.
 *   5  the pareto search (docs/design/pareto-search.md): events `parent_chosen`, `candidate_decided` and `pool_member`,
 *      the status `pooled` and the phase `merging`; `iteration_started.mode` replaces `.strategy`
 *      (the bold/focused switch is the mutation mode; "strategy" names the search strategy). A
 *      run started under version 4 or earlier keeps the greedy search when resumed.
 *   6  the overnight cost engine (docs/design/cost-engine.md): events `spend_alert` (50% / 80% of budget.usd),
 *      `batch_submitted` (journaled before a batch is waited on) and `batch_finished`; `spend`
 *      events carry the ledger's token kinds (`inputTokens`, `cacheWriteTokens`,
 *      `cacheReadTokens`, `outputTokens`), `batchCalls` and `cachedCalls` (answered by the run's
 *      response cache); the saved override `batch`.
 */
import { AutoresearchError } from '../errors.js';

export const RECORD_VERSION = 6;

/** Throws when `version` is newer than this build reads; `what` names the file. */
export function refuseNewerRecord(version: number, what: string): void {
  if (version <= RECORD_VERSION) return;
  throw new AutoresearchError(
    'E_RUN_VERSION',
    `${what} was written by a newer autoresearch (record version ${version}; this one reads up to ${RECORD_VERSION})`,
    {
      hint: 'upgrade autoresearch to the version that wrote this run (its manifest.json names it: toolVersion)',
    },
  );
}
