/**
 * Cases from `.yaml`, `.jsonl` or `.csv` (docs/design/experiment-format.md), validated case by case
 * so every bad case is reported, with generated ids for cases without one and duplicate ids
 * refused.
 */
import { extname } from 'node:path';
import type { Problem } from '../../errors.js';
import type { KeyPath } from '../key-path.js';
import type { ChatMessage } from '../../providers/types.js';
import { CaseEntry, type CaseMessage, type CheckEntry } from '../schema.js';
import type { Split } from '../types.js';
import type { Position } from '../yaml-source.js';
import { describeIssues } from '../zod-problems.js';
import { generateCaseId } from './case-id.js';
import { CASE_FORMATS, type RawCases } from './raw-case.js';
import { readCsvCases } from './read-csv-cases.js';
import { readJsonlCases } from './read-jsonl-cases.js';
import { readYamlCases } from './read-yaml-cases.js';
import { triggerCheck } from './trigger-check.js';

/** A valid case before the split: its own label (if any) and a way to point into its source. */
export interface DraftCase {
  index: number;
  id: string;
  idGenerated: boolean;
  vars: Record<string, string>;
  checks: CheckEntry[];
  expectations: string[];
  /** The conversation so far as written (placeholders not yet filled). */
  messages?: ChatMessage[];
  /** The agent case's fixture folder as written (relative to the cases file). */
  fixtures?: string;
  /** Whether the agent should use the skill; its check is already among `checks`. */
  shouldTrigger?: boolean;
  label: Split | undefined;
  /** The case's own `group:` key, as text. */
  group?: string;
  line: number;
  locate(path: KeyPath): Position;
}

export interface LoadedCases {
  cases: DraftCase[];
  /** Cases found in the file, valid or not. */
  found: number;
  problems: Problem[];
}

export function isCaseFormat(file: string): boolean {
  return (CASE_FORMATS as readonly string[]).includes(extname(file).toLowerCase());
}

export function readRawCases(file: string, text: string): RawCases {
  const ext = extname(file).toLowerCase();
  if (ext === '.jsonl') return readJsonlCases(file, text);
  if (ext === '.csv') return readCsvCases(file, text);
  return readYamlCases(file, text);
}

export function loadCases(file: string, text: string): LoadedCases {
  const { cases: raws, problems } = readRawCases(file, text);
  const cases: DraftCase[] = [];
  for (const raw of raws) {
    const parsed = CaseEntry.safeParse(raw.raw);
    if (!parsed.success) {
      problems.push(
        ...describeIssues(parsed.error.issues, {
          file,
          schema: CaseEntry,
          data: raw.raw,
          locate: raw.locate,
          prefix: [raw.index],
        }),
      );
      continue;
    }
    const entry = parsed.data;
    const vars = Object.fromEntries(
      Object.entries(entry.vars).map(([k, v]) => [k, raw.numberSources[k] ?? String(v)]),
    );
    cases.push({
      index: raw.index,
      id: entry.id ?? generateCaseId(vars),
      idGenerated: entry.id === undefined,
      vars,
      checks: [
        ...(entry.checks ?? []),
        ...(entry.should_trigger === undefined ? [] : [triggerCheck(entry.should_trigger)]),
      ],
      expectations: entry.expectations ?? [],
      ...(entry.messages ? { messages: entry.messages.map(toChatMessage) } : {}),
      ...(entry.fixtures === undefined ? {} : { fixtures: entry.fixtures }),
      ...(entry.should_trigger === undefined ? {} : { shouldTrigger: entry.should_trigger }),
      label: entry.split,
      ...(entry.group === undefined ? {} : { group: String(entry.group) }),
      line: raw.line,
      locate: raw.locate,
    });
  }
  problems.push(...findDuplicateIds(file, cases));
  if (raws.length === 0 && !problems.some((p) => p.severity === 'error')) {
    problems.push({
      severity: 'error',
      location: { file, line: 1, col: 1 },
      keyPath: '',
      message: 'no cases: the cases file is empty',
      hint: 'add at least one case (the scaffold from `autoresearch init` shows the shape)',
    });
  }
  return { cases, found: raws.length, problems };
}

/** A case's turn in the request's own shape (camelCase, absent keys left out). */
function toChatMessage(message: CaseMessage): ChatMessage {
  if (message.role === 'tool')
    return { role: 'tool', toolCallId: message.tool_call_id, content: message.content };
  if (message.role === 'user') return { role: 'user', content: message.content };
  return {
    role: 'assistant',
    content: message.content,
    ...(message.tool_calls ? { toolCalls: message.tool_calls.map((c) => ({ ...c })) } : {}),
  };
}

function findDuplicateIds(file: string, cases: readonly DraftCase[]): Problem[] {
  const first = new Map<string, DraftCase>();
  const problems: Problem[] = [];
  for (const c of cases) {
    const earlier = first.get(c.id);
    if (earlier === undefined) {
      first.set(c.id, c);
      continue;
    }
    const at = c.locate(c.idGenerated ? ['vars'] : ['id']);
    problems.push({
      severity: 'error',
      location: { file, ...at },
      keyPath: `[${c.index}].${c.idGenerated ? 'vars' : 'id'}`,
      message: `duplicate case id \`${c.id}\` (first used on line ${earlier.line})`,
      hint: c.idGenerated
        ? 'these cases have the same vars, so their generated ids collide; give them distinct `id`s'
        : 'case ids must be unique',
    });
  }
  return problems;
}
