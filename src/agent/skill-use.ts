/**
 * Whether an agent used a skill, read from its tool calls (docs/design/agent-runs.md "Skill use"):
 * Claude Code calls its `Skill` tool with the skill's name; any agent may instead read the skill's
 * `SKILL.md` — Claude Code with its `Read` tool, Codex (which has no skill tool and reads skills as
 * files) or Claude Code's `Bash` with a shell command that prints the file. The first such call is
 * the evidence.
 */
import { isRecord } from '../is-record.js';
import type { AgentToolCall } from './agent-tool-calls.js';

/** A tool call as the case's record keeps it (`tool-calls.json`). */
type Call = Pick<AgentToolCall, 'name' | 'arguments'>;

export type SkillUse =
  /** `call`: the using call's place among the run's tool calls, from 1. */
  | { used: true; call: number; how: string }
  | { used: false /** Other skills the agent did use, by name. */; others: string[] };

/** Claude Code's skill tool: `{ skill: "<name>" }` (a plugin's skill as `<plugin>:<name>`). */
const SKILL_TOOL = 'Skill';
const READ_TOOLS = new Set(['Read']);
/** Shell tools, whose `command` (or Codex's `cmd`) is a string or an argv. */
const SHELL_TOOLS = new Set(['Bash', 'exec_command', 'shell', 'local_shell']);
/** Programs that print a file (or part of it) when given its path. */
const PRINTERS = /(?:^|[\s;&|(`'"/])(?:cat|head|tail|sed|awk|less|more|nl|bat|batcat|view|Get-Content)(?=\s)/;

/** `<anything>/skills/<name>/SKILL.md`, as a path or inside a command line. */
function skillFilePattern(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[\\s'"=/\\\\])skills[/\\\\]${escaped}[/\\\\]SKILL\\.md(?![\\w.])`);
}
const ANY_SKILL_FILE = /(?:^|[\s'"=/\\])skills[/\\]([a-z0-9][a-z0-9-]*)[/\\]SKILL\.md(?![\w.])/;

function stringField(input: unknown, ...keys: string[]): string | undefined {
  if (!isRecord(input)) return undefined;
  for (const key of keys) {
    const value = input[key];
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value.join(' ');
  }
  return undefined;
}

/** The skill a call used, by name, and how it did; undefined for a call that used none. */
function skillOfCall(entry: { tool: string; input: unknown }): { name: string; how: string } | undefined {
  if (entry.tool === SKILL_TOOL) {
    const named = stringField(entry.input, 'skill', 'name', 'command');
    if (named === undefined) return undefined;
    const name = named.trim().replace(/^\//, '').split(':').at(-1) ?? '';
    return { name, how: `called Skill with "${named}"` };
  }
  if (READ_TOOLS.has(entry.tool)) {
    const path = stringField(entry.input, 'file_path', 'path');
    const name = path === undefined ? undefined : ANY_SKILL_FILE.exec(path)?.[1];
    return name === undefined ? undefined : { name, how: `read ${path} with ${entry.tool}` };
  }
  if (SHELL_TOOLS.has(entry.tool)) {
    const command = stringField(entry.input, 'command', 'cmd');
    if (command === undefined || !PRINTERS.test(command)) return undefined;
    const name = ANY_SKILL_FILE.exec(command)?.[1];
    return name === undefined
      ? undefined
      : { name, how: `printed its SKILL.md with ${entry.tool}: ${command}` };
  }
  return undefined;
}

export function findSkillUse(calls: readonly Call[], skill: string): SkillUse {
  const wanted = skillFilePattern(skill);
  const others: string[] = [];
  for (const [index, call] of calls.entries()) {
    const entry = { tool: call.name, input: call.arguments };
    const found = skillOfCall(entry);
    if (found === undefined) continue;
    // A shell line may print several skills: it used this one when it names this one's file.
    const command = stringField(entry.input, 'command', 'cmd');
    const thisOne =
      found.name === skill || (SHELL_TOOLS.has(entry.tool) && command !== undefined && wanted.test(command));
    if (thisOne) return { used: true, call: index + 1, how: found.how };
    if (!others.includes(found.name)) others.push(found.name);
  }
  return { used: false, others };
}
