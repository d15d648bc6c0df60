import { join } from 'node:path';
import type { Command } from 'commander';
import { type AgentCases, readAgentCases } from '../../agent/read-agent-cases.js';
import { candidatePaths } from '../../run/paths.js';
import { formatAgentCases } from '../../ui/format-agent-cases.js';
import { readCalibration } from '../../calibrate/read-calibration.js';
import { findDamagedEvaluations } from '../../report/find-damaged-evaluations.js';
import { buildOverview } from '../../report/overview.js';
import { minEffectOf, reviewPool } from '../../report/pool-view.js';
import { readJournal } from '../../run/journal.js';
import { readLockStatus } from '../../run/lock.js';
import { readManifestOrNull } from '../../run/manifest.js';
import { reduceRun } from '../../run/reducer.js';
import { resolveRunRef } from '../../run/run-ref.js';
import { formatCalibration } from '../../ui/format-calibration.js';
import { formatIteration } from '../../ui/format-iteration.js';
import { readIterationDetail } from '../iteration-detail.js';
import { formatShow, formatShowJson } from '../../ui/format-show.js';
import { terminal } from '../../ui/terminal.js';
import { runsDirOf } from '../runs-dir-option.js';

/**
 * An agent run's cases as last evaluated in full (docs/design/agent-runs.md): the final check's
 * best (or its baseline, when the best is the baseline), else the baseline's (an `eval` record's one evaluation); null for a run of model calls.
 */
async function agentCasesOf(
  dir: string,
  first: string,
): Promise<{ title: string; cases: AgentCases } | null> {
  for (const [title, candidate] of [
    ['final check, best', join(dir, 'final', 'best')],
    ['final check, baseline', join(dir, 'final', 'baseline')],
    [first, candidatePaths(dir, 0, 0).dir],
  ] as const) {
    const cases = await readAgentCases(candidate);
    if (cases !== null) return { title, cases };
  }
  return null;
}

interface ShowOptions {
  json?: boolean;
}

export default async function showCommand(
  runId: string,
  iteration: string | undefined,
  options: ShowOptions,
  command: Command,
): Promise<number> {
  const runsDir = runsDirOf(command);
  const { id, dir } = await resolveRunRef(runsDir, runId);
  const [journal, lock] = await Promise.all([
    readJournal(dir, { onInvalid: 'collect' }),
    readLockStatus(dir),
  ]);
  const state = reduceRun(journal.events);
  const manifest = await readManifestOrNull(dir);
  const overview = buildOverview(state, { id, liveLock: lock.state === 'held', from: manifest?.from });
  const term = terminal();
  // A calibration (docs/design/judge-reliability.md) has no iterations: its figures are in
  // calibration.json.
  const calibration = state.start?.kind === 'calibrate' ? await readCalibration(dir) : null;
  for (const invalid of journal.invalidLines) {
    term.err(
      term.colors.yellow(`warning: events.jsonl line ${invalid.line} was skipped: ${invalid.message}`),
    );
  }
  for (const problem of await findDamagedEvaluations(dir))
    term.err(term.colors.yellow(`warning: ${problem}`));
  if (iteration !== undefined) {
    const detail = await readIterationDetail(dir, state, iteration);
    term.out(
      options.json ? JSON.stringify(detail, null, 2) : formatIteration(detail, term.colors, term.width),
    );
    return 0;
  }
  if (calibration !== null) {
    term.out(
      options.json
        ? formatShowJson(overview, state.iterations, { calibration })
        : formatCalibration(calibration, { colors: term.colors }),
    );
    return 0;
  }
  // A pareto run (docs/design/pareto-search.md): its front is drawn at the run's min_effect, which
  // the manifest holds.
  const pool = state.pool === null ? null : reviewPool(state.pool, minEffectOf(manifest?.config));
  const agent = await agentCasesOf(dir, state.start?.kind === 'eval' ? 'the evaluation' : 'baseline');
  term.out(
    options.json
      ? formatShowJson(overview, state.iterations, { pool, ...(agent ? { agentCases: agent.cases } : {}) })
      : formatShow(overview, state.iterations, { width: term.width, colors: term.colors }, pool),
  );
  if (agent && !options.json)
    term.out(`\n${formatAgentCases(agent.title, agent.cases, term.colors, term.width)}`);
  return 0;
}
