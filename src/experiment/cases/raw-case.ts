import type { Problem } from '../../errors.js';
import type { KeyPath } from '../key-path.js';
import type { Position } from '../yaml-source.js';

/** One case as read from its file, before validation: the data and how to point into it. */
export interface RawCase {
  index: number;
  raw: unknown;
  /** The line the case starts on. */
  line: number;
  /** Line and column of a key inside this case (path relative to the case). */
  locate(path: KeyPath): Position;
  /** The source text of numeric var values, so `1.10` reaches the prompt as written. */
  numberSources: Record<string, string>;
}

export interface RawCases {
  cases: RawCase[];
  problems: Problem[];
}

export const CASE_FORMATS = ['.yaml', '.yml', '.jsonl', '.csv'] as const;
