/**
 * `autoresearch validate <experiment> [--ping] [--json] [overrides]`: load the experiment,
 * print every problem at once (exit 2) or the plan with calls and estimated cost (exit 0).
 * The overrides of `run` apply, so the plan is the one that command line would get
 * (`--provider sim`: simulated models, no key warnings; `--iterations 50`: that run's cost).
 * `--ping` makes one tiny call per distinct model (exit 1 if any fails; a missing key
 * refuses, exit 2). Under paired acceptance the plan gives the smallest detectable gain, from
 * the per-case noise of the experiment's latest run in the runs folder when there is one.
 * Writes nothing anywhere.
 */
import type { Command } from 'commander';
import { AutoresearchError, EXIT, type Problem, ValidationError } from '../../errors.js';
import { canonicalJson } from '../../canonical-json.js';
import { loadExperiment } from '../../experiment/load-experiment.js';
import { isolationNote } from '../../sandbox/run-isolation.js';
import { readMeasuredNoise } from '../../run/measured-noise.js';
import {
  applyOverrides,
  type OverrideFlags,
  providerOf,
  warningsAfterOverrides,
} from '../../experiment/overrides.js';
import { buildPlan, type Plan } from '../../experiment/plan.js';
import { judgeMembers, memberName } from '../../experiment/judge-panel.js';
import { describeMissingKey, findMissingKeys, missingKeyHint } from '../../experiment/missing-keys.js';
import { ROLES } from '../../experiment/roles.js';
import type { JudgeEntry } from '../../experiment/schema.js';
import type { Experiment, StartSeed } from '../../experiment/types.js';
import { type PingResult, pingModels } from '../../providers/ping.js';
import { formatPlan } from '../../ui/format-plan.js';
import { formatProblems } from '../../ui/format-problems.js';
import { type Terminal, terminal } from '../../ui/terminal.js';
import { runsDirOf } from '../runs-dir-option.js';
import { resolveFrom } from '../resolve-from.js';
import { describeFrom, startSeeds } from '../../run/run-from.js';

export interface ValidateOptions extends OverrideFlags {
  ping?: boolean;
  json?: boolean;
  /** As on `run`: the source is resolved and checked (resolve-from.ts), and named in the notes. */
  from?: string;
}

export interface ValidateDeps {
  cwd: string;
  env: NodeJS.ProcessEnv;
  term: Terminal;
  ping?: typeof pingModels;
  /** Where the experiment's earlier runs are, for their measured noise; none: the default noise. */
  runsDir?: string;
}

export default async function validateCommand(
  ref: string,
  options: ValidateOptions,
  command: Command,
): Promise<number> {
  return runValidate(ref, options, {
    cwd: process.cwd(),
    env: process.env,
    term: terminal(),
    runsDir: runsDirOf(command),
  });
}

export async function runValidate(
  ref: string,
  options: ValidateOptions,
  deps: ValidateDeps,
): Promise<number> {
  const { term, cwd, env } = deps;
  let experiment: Experiment;
  let notes: string[];
  try {
    const { experiment: loaded } = await loadExperiment(ref, { cwd, env, ...providerOf(options) });
    const { ping: _ping, json: _json, from, ...flags } = options;
    const overridden = applyOverrides(loaded, flags);
    notes = overridden.notes;
    let seeds: StartSeed[] = [];
    if (from !== undefined) {
      if (deps.runsDir === undefined) throw new Error('validate --from needs the runs folder');
      const resolved = await resolveFrom(from, deps.runsDir, overridden.experiment);
      notes = [...notes, ...resolved.notes, `the run would start from ${describeFrom(resolved.from)}`];
      seeds = startSeeds(resolved.from);
    }
    experiment = {
      ...overridden.experiment,
      // The plan counts a pool start's seeds among the baseline's evaluations.
      ...(seeds.length === 0 ? {} : { seeds }),
      warnings: warningsAfterOverrides(loaded.warnings, loaded, overridden.experiment),
    };
  } catch (error) {
    if (error instanceof ValidationError) return reportProblems(error.problems, options, deps);
    if (error instanceof AutoresearchError && options.json) {
      return reportProblems([asProblem(error, ref)], options, deps);
    }
    throw error;
  }
  const isolation = isolationNote(experiment);
  const measured = deps.runsDir === undefined ? null : await readMeasuredNoise(deps.runsDir, experiment.name);
  const plan = { ...buildPlan(experiment, measured), ...(isolation === undefined ? {} : { isolation }) };
  if (!options.json) for (const note of notes) term.err(term.colors.yellow(`note: ${note}`));
  const notesOpt = notes.length > 0 ? { notes } : {};
  if (!options.ping) {
    if (options.json)
      term.out(JSON.stringify({ ok: true, problems: plan.warnings, ...notesOpt, plan }, null, 2));
    else term.out(formatPlan(plan, term.colors, cwd));
    return EXIT.ok;
  }

  const missing = [...findMissingKeys(experiment, env)];
  if (missing.length > 0) {
    const problems = missing.map(
      ([name, roles]): Problem => ({
        severity: 'error',
        location: { file: experiment.file },
        keyPath: `models.${roles[0]}`,
        message: describeMissingKey(name, roles),
        hint: missingKeyHint(name),
      }),
    );
    return reportProblems(problems, options, deps, plan);
  }

  const targets = groupDistinctModels(experiment);
  const results = await (deps.ping ?? pingModels)(targets, env, { cwd: experiment.dir });
  const ok = results.every((r) => r.ok);
  if (options.json) {
    term.out(JSON.stringify({ ok, problems: plan.warnings, ...notesOpt, plan, ping: results }, null, 2));
  } else {
    term.out(formatPlan(plan, term.colors, cwd));
    term.out(formatPing(results, term));
  }
  return ok ? EXIT.ok : EXIT.failure;
}

function reportProblems(
  problems: Problem[],
  options: ValidateOptions,
  deps: ValidateDeps,
  plan?: Plan,
): number {
  const { term } = deps;
  if (options.json) {
    term.out(JSON.stringify({ ok: false, problems, plan: plan ?? null }, null, 2));
    return EXIT.usage;
  }
  const c = term.colors;
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  term.err(formatProblems(problems, c, deps.cwd));
  const tail = warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : '';
  term.err(c.red(`${errors} error${errors === 1 ? '' : 's'}${tail}; nothing was written.`));
  return EXIT.usage;
}

function asProblem(error: AutoresearchError, ref: string): Problem {
  return {
    severity: 'error',
    location: { file: ref },
    keyPath: '',
    message: error.message,
    ...(error.hint ? { hint: error.hint } : {}),
  };
}

/**
 * Roles that reach the same model (a defaulted mutator, a judge that is the generator at
 * temperature 0) are pinged once, labelled together: a ping sets its own sampling settings.
 */
function groupDistinctModels(experiment: Experiment): Record<string, JudgeEntry> {
  const groups = new Map<string, { roles: string[]; entry: JudgeEntry }>();
  const entries = ROLES.flatMap((role) => {
    const config = experiment.models[role];
    if (config === undefined) return [];
    const members = judgeMembers(config);
    return members.map((entry, i) => ({ name: members.length > 1 ? memberName(role, i) : role, entry }));
  });
  for (const { name, entry } of entries) {
    const { temperature: _t, max_tokens: _m, samples: _s, ...endpoint } = entry as Record<string, unknown>;
    const key = canonicalJson(endpoint);
    const group = groups.get(key);
    if (group) group.roles.push(name);
    else groups.set(key, { roles: [name], entry });
  }
  return Object.fromEntries([...groups.values()].map((g) => [g.roles.join(', '), g.entry]));
}

function formatPing(results: readonly PingResult[], term: Terminal): string {
  const c = term.colors;
  if (results.length === 0) return `${c.bold('Ping'.padEnd(12))}nothing to ping (no model entries)`;
  const width = Math.max(...results.map((r) => r.role.length));
  return results
    .map((r, i) => {
      const label = i === 0 ? c.bold('Ping'.padEnd(12)) : ' '.repeat(12);
      const sim = r.simulated ? c.dim(' (simulated)') : '';
      const outcome = r.ok
        ? `${c.green('ok')} ${r.latencyMs ?? 0} ms${sim}`
        : `${c.red('failed')}: ${r.error ?? 'unknown error'}`;
      return `${label}${r.role.padEnd(width)}  ${outcome}`;
    })
    .join('\n');
}
