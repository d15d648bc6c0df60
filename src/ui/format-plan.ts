/** The text `validate` prints on success: the plan of a run, its calls and its estimated cost. */
import { times } from '../experiment/count-calls.js';
import type { RoleCost } from '../experiment/estimate-cost.js';
import type { Plan } from '../experiment/plan.js';
import { type PlanAcceptance, round } from '../experiment/plan-acceptance.js';
import { ROLES, type Role } from '../experiment/roles.js';
import { formatProblem } from './format-problems.js';
import type { Colors } from './terminal.js';

const LABEL_WIDTH = 12;

export function formatPlan(plan: Plan, colors: Colors, cwd: string): string {
  const rel = (file: string) => (file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file);
  const lines: string[] = [];
  const row = (label: string, text: string) => lines.push(`${colors.bold(label.padEnd(LABEL_WIDTH))}${text}`);
  const more = (text: string) => lines.push(`${' '.repeat(LABEL_WIDTH)}${text}`);

  const { experiment, prompt, cases, checks, rubric, calls, cost, search, budget } = plan;
  row('Experiment', `${experiment.name}${experiment.description ? ` — ${experiment.description}` : ''}`);
  more(colors.dim(rel(experiment.file)));
  const placeholders = prompt.placeholders.length ? prompt.placeholders.join(', ') : 'none';
  row('Prompt', `${rel(prompt.path)}  (${prompt.chars} chars; placeholders: ${placeholders})`);
  if (prompt.shape) {
    const { part, fixed, output, tools } = prompt.shape;
    more(
      `optimised part${part.includes(', ') ? 's' : ''}: ${part}; fixed: ${fixed.length ? fixed.join(', ') : 'none'}`,
    );
    if (output) more(`output schema: ${rel(output)}`);
    if (tools.length > 0) more(`tools: ${tools.join(', ')}`);
  }

  row(
    'Cases',
    `${cases.train.length} train, ${cases.holdout.length} holdout, ${cases.test.length} test  (${rel(cases.path)})`,
  );
  more(`train:   ${listIds(cases.train)}`);
  more(`holdout: ${cases.holdout.length ? listIds(cases.holdout) : colors.dim('none')}`);
  if (cases.test.length > 0)
    more(`test:    ${listIds(cases.test)} ${colors.dim('(sealed: scored only by the final evaluation)')}`);
  if (cases.withExpectations > 0) more(`${cases.withExpectations} with expectations (graded)`);

  const gates = checks.gates ? `, ${checks.gates} gate${checks.gates === 1 ? '' : 's'}` : '';
  const perCase = checks.perCase
    ? `, ${checks.perCase} per-case on ${checks.casesWithChecks} case${checks.casesWithChecks === 1 ? '' : 's'}`
    : '';
  row('Checks', `${checks.global.length} global${perCase}${gates}`);
  for (const name of checks.global) more(`- ${name}`);

  if (rubric) {
    row('Rubric', rel(rubric.path));
    for (const c of rubric.criteria) {
      const weight = c.weight === 1 ? '' : `  (weight ${c.weight})`;
      const items = c.items
        ? `  (checklist: ${c.items.length} yes/no item${c.items.length === 1 ? '' : 's'})`
        : '';
      more(`- ${c.key}${weight}${items}`);
    }
  } else {
    row('Rubric', colors.dim('none (no judge)'));
  }

  const roleWidth = Math.max(...plan.models.map((m) => m.role.length));
  plan.models.forEach((m, i) => {
    const origin = m.origin === 'configured' ? '' : colors.dim(`  (${m.origin})`);
    const sim = m.simulated ? colors.yellow('  [simulated]') : '';
    const panel = m.panel
      ? colors.dim(
          `  (panel member ${m.panel.member + 1} of ${m.panel.of}, ${m.panel.aggregate} of their scores)`,
        )
      : '';
    const text = `${m.role.padEnd(roleWidth)}  ${m.label}${origin}${panel}${sim}`;
    if (i === 0) row('Models', text);
    else more(text);
  });

  if (plan.isolation !== undefined) row('Isolation', plan.isolation);

  formatAcceptance(plan.acceptance, colors, row, more);

  const loopCases = cases.train.length + cases.holdout.length;
  const shape = `${plural(search.candidates, 'candidate')} × ${loopCases} cases × ${plural(search.samples, 'sample')}`;
  if (calls.acceptance === 'paired') {
    const retest = calls.retest
      ? `, + ${calls.retest.retests === 1 ? 'a retest' : `${calls.retest.retests} retests (one per candidate)`} of both sides × ${plural(calls.retest.samples, 'sample')}`
      : '';
    row('Calls', `per iteration: at most ${formatCounts(calls.perIteration)}  (${shape}${retest})`);
    if (calls.screening)
      more(`every proposal screened out on its minibatch: ${formatCounts(calls.screening.screenedOut)}`);
    if (calls.schedule.mergesDue > 0)
      more(
        `a merge of two front members tried ${plural(calls.schedule.mergesDue, 'time')} (one candidate each, within the above)`,
      );
  } else {
    row(
      'Calls',
      `per iteration: ${formatCounts(calls.perIteration)}  (${shape}${search.confirm ? ', +1 evaluation to confirm a keep' : ''})`,
    );
  }
  for (const [role, runs] of Object.entries(calls.programRuns)) {
    more(`${role}: external program, ${runs} run${runs === 1 ? '' : 's'} per evaluation`);
  }
  more(
    `baseline: ${calls.baselineEvaluations} evaluation${calls.baselineEvaluations === 1 ? '' : 's'} (${formatCounts(times(calls.perEvaluation, calls.baselineEvaluations))}); final check: ${calls.finalEvaluations} evaluations`,
  );
  if (experiment.agentMaxTurns !== undefined)
    more(
      `the generator's count is agent cases, each a conversation of up to ${plural(experiment.agentMaxTurns, 'model call')}`,
    );
  if (calls.anchors) {
    const { outputs, every, perReading } = calls.anchors;
    more(
      `drift anchors: ${plural(outputs, 'baseline output')} judged again after the baseline and every ${every === 1 ? 'iteration' : `${every} iterations`} (${perReading.judge > 0 ? formatCounts(perReading) : 'one judge run'} each)`,
    );
  }

  const simulated = plan.models.every((m) => m.simulated);
  if (cost.perIterationUsd === null) {
    row('Cost', colors.yellow('unknown'));
    for (const line of unknownCostLines(cost.roles)) more(`- ${line}`);
    if (cost.knownPerIterationUsd > 0)
      more(`the roles with a known price: ~${usd(cost.knownPerIterationUsd)} per iteration`);
  } else {
    const whole = cost.totalUsd === null ? 'unknown' : `~${usd(cost.totalUsd)}`;
    row(
      'Cost',
      `~${usd(cost.perIterationUsd)} per iteration, ${whole} for ${budget.iterations} iterations with baseline and final check${simulated ? colors.dim('  (simulated: free)') : ''}`,
    );
    if (
      budget.usd !== null &&
      cost.totalUsd !== null &&
      cost.totalUsd > budget.usd &&
      cost.perIterationUsd > 0
    ) {
      const baseline = cost.baselineUsd ?? 0;
      more(
        baseline > budget.usd
          ? `budget.usd stops the run at $${budget.usd}, during the baseline (~${usd(baseline)}): no iteration runs`
          : `budget.usd stops the run at $${budget.usd}, about ${Math.floor((budget.usd - baseline) / cost.perIterationUsd)} iterations in`,
      );
    }
    more(
      colors.dim(
        `rough estimate: ~4 characters per token, outputs at max_tokens${calls.acceptance === 'paired' ? ', every iteration at its most' : ''}`,
      ),
    );
    if (cost.night !== null && !simulated) {
      const n = cost.night;
      row(
        'Night',
        `~${usd(n.interactive)} interactive · ~${usd(n.caching)} with prompt caching · ~${usd(n.batch)} with --batch · ~${usd(n.batchAndCaching)} with both`,
      );
      more(
        colors.dim(
          'prompt caching is on wherever the provider has a cache; --batch (or batch: true) sends generator, judge and grader calls through the batch API at its discount; retests, drift anchors and screening counted',
        ),
      );
    }
  }
  for (const note of new Set(cost.roles.flatMap((r) => (r.note === undefined ? [] : [r.note])))) {
    more(colors.dim(note));
  }

  const limits = [
    `${budget.iterations} iterations`,
    `${budget.hours} h`,
    budget.usd === null ? undefined : `$${budget.usd}`,
    `patience ${budget.patience}`,
    budget.target === null ? undefined : `target ${budget.target}`,
  ].filter((x): x is string => x !== undefined);
  row('Budget', `${limits.join(', ')}  (the first limit reached stops the run)`);

  if (plan.warnings.length > 0) {
    row('Warnings', String(plan.warnings.length));
    for (const w of plan.warnings) more(formatProblem(w, colors, cwd));
  }
  return lines.join('\n');
}

function formatAcceptance(
  acceptance: PlanAcceptance,
  colors: Colors,
  row: (label: string, text: string) => void,
  more: (text: string) => void,
): void {
  if (acceptance.rule === 'margin') {
    const margin =
      acceptance.minImprovement === 'auto'
        ? `twice the baseline's noise over ${plural(acceptance.noiseRepeats, 'evaluation')}`
        : `min_improvement ${acceptance.minImprovement}`;
    const confirm = acceptance.confirm ? '; a would-be keep is confirmed with fresh samples' : '';
    row(
      'Acceptance',
      `margin (version 1): keep a train mean that beats the incumbent's by ${margin}${confirm}`,
    );
    return;
  }
  const retest =
    acceptance.retest > 0
      ? `; unclear: both sides get ${plural(acceptance.retest, 'more sample')} per case and it is decided again (each look at ${percent(acceptance.lookConfidence)})`
      : '';
  row(
    'Acceptance',
    `paired: keep when the mean gain per train case is above 0 at ${percent(acceptance.confidence)} confidence and at least min_effect ${acceptance.minEffect}${retest}`,
  );
  if (acceptance.minibatch !== null)
    more(`screening: each proposal first on a minibatch of ${acceptance.minibatch} train cases`);
  const d = acceptance.detectable;
  const from =
    'run' in d.from
      ? `measured over ${plural(d.from.decisions, 'decision')} of run ${d.from.run}`
      : `from a default spread of ${d.from.default}; no run yet`;
  if (d.effect === null) {
    more(
      colors.dim(
        `smallest detectable gain: none (fewer than 2 train ${d.groups === null ? 'cases' : 'groups'})`,
      ),
    );
    return;
  }
  const groups = d.groups === null ? '' : ` in ${plural(d.groups.count, 'group')}`;
  const atBest =
    d.groups === null
      ? ''
      : `, at best${d.groups.ungroupedEffect === null ? '' : `; ≈ ${round(d.groups.ungroupedEffect)} if the cases were independent`}`;
  more(
    `smallest detectable gain ≈ ${round(d.effect)}  (power 0.8; ${d.cases} train cases${groups} × ${plural(d.samples, 'sample')}${atBest}; per-case sd ${round(d.sd)} ${from})`,
  );
  if (d.warning !== null) more(colors.yellow(`warning: ${d.warning}`));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function percent(value: number): string {
  return `${Number((value * 100).toFixed(1))}%`;
}

function listIds(ids: readonly string[], max = 12): string {
  if (ids.length <= max) return ids.join(', ');
  return `${ids.slice(0, max).join(', ')}, … (+${ids.length - max})`;
}

function formatCounts(counts: Readonly<Record<Role, number>>): string {
  const parts = ROLES.filter((r) => counts[r] > 0).map((r) => `${r} ${counts[r]}`);
  return parts.length ? parts.join(', ') : 'none';
}

export function usd(amount: number): string {
  if (amount === 0) return '$0.00';
  if (amount < 0.01) return `$${amount.toPrecision(2)}`;
  return `$${amount.toFixed(2)}`;
}

/**
 * Why the cost is unknown, one line per model with no price (one model in several roles is said
 * once, naming the roles and each key that would price it), then any other reason.
 */
function unknownCostLines(roles: readonly RoleCost[]): string[] {
  const byModel = new Map<string, { roles: string[]; keys: string[] }>();
  const other: string[] = [];
  for (const r of roles) {
    if (r.unpriced === undefined) {
      if (r.unknownBecause) other.push(r.unknownBecause);
      continue;
    }
    const known = byModel.get(r.unpriced.model) ?? { roles: [], keys: [] };
    known.roles.push(r.role);
    known.keys.push(r.unpriced.keyPath);
    byModel.set(r.unpriced.model, known);
  }
  const lines = [...byModel].map(([model, { roles: named, keys }]) =>
    named.length === 1
      ? `no price for ${model}; set ${keys[0]}`
      : `no price for ${model} (${named.join(', ')}); set ${keys.join(', ')}`,
  );
  return [...lines, ...other];
}
