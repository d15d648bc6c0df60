/**
 * Which program a judge or grader entry runs: a model entry starts our own CLI (the built-in
 * judge or grader) with its settings on stdin, speaking HTTP to the proxy; a program entry
 * runs the user's argv, relative paths anchored at the project root.
 */
import { existsSync } from 'node:fs';
import { isProgramEntry } from '../experiment/program-entry.js';
import type { JudgeEntry } from '../experiment/schema.js';
import { resolveCliEntry } from './cli-entry.js';
import { proxiedSettings } from '../protocol/model-settings.js';
import { resolveProgramArgv } from './resolve-program-argv.js';
import { isCliAgentCommand } from './sandbox-env.js';

export interface PlannedProgram {
  argv: string[];
  /** The built-in program's model settings, for its stdin. */
  input?: string;
  cliAgent: boolean;
  timeoutMs: number;
}

export interface PlanOptions {
  /** The subcommand and its arguments, e.g. `['judge', 'outputs', '--rubric', 'rubric.md']`. */
  builtinArgs: readonly string[];
  /** Per attempt; a program entry's `timeout_s` wins. */
  timeoutMs: number;
  cliEntry?: string;
  commandCwd?: string;
  /** The run's concurrency limit for the model the built-in program's calls go to. */
  endpointLimit?: number;
}

export function planProgram(entry: JudgeEntry, options: PlanOptions): PlannedProgram {
  if (isProgramEntry(entry)) {
    return {
      argv: resolveProgramArgv(entry.command, options.commandCwd ?? process.cwd(), existsSync),
      cliAgent: isCliAgentCommand(entry.command),
      timeoutMs: entry.timeout_s === undefined ? options.timeoutMs : entry.timeout_s * 1000,
    };
  }
  const settings = proxiedSettings(entry, {
    timeoutMs: options.timeoutMs,
    endpointLimit: options.endpointLimit ?? 1,
    ...(entry.samples === undefined ? {} : { samples: entry.samples }),
  });
  return {
    argv: [process.execPath, options.cliEntry ?? resolveCliEntry(), ...options.builtinArgs],
    input: JSON.stringify(settings),
    cliAgent: false,
    timeoutMs: options.timeoutMs,
  };
}
