/**
 * Checks one journal line's value against the event vocabulary without a schema library, so
 * reading a journal loads no zod: `show` starts without it, where loading zod and building the
 * event schemas was most of its start-up (BENCHMARKS.md, benchmark 6). The zod schemas in
 * events.ts stay the definition the types come from; test/unit/run/event-check.test.ts holds
 * this check to them, accepting and refusing exactly what they do over valid events and
 * damaged copies.
 */
import { ROLES } from '../experiment/roles.js';
import { isDateTime } from './date-time.js';
import type { RunEvent } from './events.js';
import {
  ERROR_KINDS,
  EVENT_VERSION,
  ITERATION_STATUSES,
  PHASES,
  SCORE_EPSILON,
  STOP_REASONS,
  STRATEGIES,
} from './event-names.js';
import { isRecord } from '../is-record.js';

export type EventCheck = { ok: true; event: RunEvent } | { ok: false; message: string };

interface Problem {
  path: readonly (string | number)[];
  message: string;
}

/** A value's first problem, or undefined when it is fine. */
type Check = (value: unknown) => Problem | undefined;

const problem = (message: string): Problem => ({ path: [], message });
const within = (key: string | number, inner: Problem): Problem => ({
  path: [key, ...inner.path],
  message: inner.message,
});

const number =
  (min = -Infinity, max = Infinity): Check =>
  (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return problem('expected a number');
    if (value < min) return problem(`expected a number >= ${min}`);
    if (value > max) return problem(`expected a number <= ${max}`);
    return undefined;
  };

const integer =
  (min: number): Check =>
  (value) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min
      ? undefined
      : problem(`expected an integer >= ${min}`);

const string =
  (minLength = 0): Check =>
  (value) => {
    if (typeof value !== 'string') return problem('expected a string');
    return value.length < minLength ? problem('expected a non-empty string') : undefined;
  };

const matching =
  (pattern: RegExp, what: string): Check =>
  (value) =>
    typeof value === 'string' && pattern.test(value) ? undefined : problem(`expected ${what}`);

const boolean: Check = (value) =>
  typeof value === 'boolean' ? undefined : problem('expected true or false');

const literal =
  (expected: string | number): Check =>
  (value) =>
    value === expected ? undefined : problem(`expected ${JSON.stringify(expected)}`);

const oneOf =
  (values: readonly string[]): Check =>
  (value) =>
    typeof value === 'string' && values.includes(value)
      ? undefined
      : problem(`expected one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);

const nullable =
  (check: Check): Check =>
  (value) =>
    value === null ? undefined : check(value);

const arrayOf =
  (item: Check): Check =>
  (value) => {
    if (!Array.isArray(value)) return problem('expected a list');
    for (let i = 0; i < value.length; i += 1) {
      const found = item(value[i]);
      if (found) return within(i, found);
    }
    return undefined;
  };

const recordOf =
  (item: Check): Check =>
  (value) => {
    if (!isRecord(value)) return problem('expected an object');
    for (const [key, entry] of Object.entries(value)) {
      const found = item(entry);
      if (found) return within(key, found);
    }
    return undefined;
  };

interface Shape {
  required: Record<string, Check>;
  optional?: Record<string, Check>;
}

/** An object with exactly these keys (the optional ones may be absent) and nothing else. */
function object({ required, optional = {} }: Shape): Check {
  return (value) => {
    if (!isRecord(value)) return problem('expected an object');
    for (const [key, check] of Object.entries(required)) {
      if (!Object.hasOwn(value, key)) return within(key, problem('missing'));
      const found = check(value[key]);
      if (found) return within(key, found);
    }
    for (const [key, check] of Object.entries(optional)) {
      if (!Object.hasOwn(value, key) || value[key] === undefined) continue;
      const found = check(value[key]);
      if (found) return within(key, found);
    }
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key))
        return problem(`unknown key "${key}"`);
    }
    return undefined;
  };
}

const iteration = integer(0);
const candidate = integer(0);
const count = integer(0);
const score = number(-SCORE_EPSILON, 1 + SCORE_EPSILON);
const usd = number(0);
const sha256 = matching(/^[0-9a-f]{64}$/, 'a sha256 hex digest');
const role = oneOf(ROLES);
const phase = oneOf(PHASES);

const splitScores = object({
  required: {
    total: nullable(score),
    checks: nullable(score),
    judge: nullable(score),
    expectations: nullable(score),
  },
});
const trainHoldout = object({ required: { train: nullable(score), holdout: nullable(score) } });

const BODIES: Record<RunEvent['type'], Shape> = {
  run_started: {
    required: {
      runId: string(1),
      kind: oneOf(['run', 'eval']),
      experiment: string(1),
      configDigest: sha256,
      overrides: recordOf(() => undefined),
      git: nullable(
        object({ required: { branch: string(1), base: string(1), baselineCommit: nullable(string(1)) } }),
      ),
      simulated: arrayOf(role),
    },
  },
  run_resumed: { required: { overrides: recordOf(() => undefined), rebaseline: boolean } },
  iteration_started: { required: { iteration, strategy: oneOf(STRATEGIES) } },
  phase: { required: { iteration, phase }, optional: { candidate, done: count, total: count } },
  proposal: {
    required: { iteration, candidate, hypothesis: string(), promptSha256: sha256, duplicate: boolean },
  },
  candidate_evaluated: {
    required: {
      iteration,
      candidate,
      scores: object({ required: { train: splitScores, holdout: splitScores, all: splitScores } }),
      gateFailure: nullable(string()),
      criteria: recordOf(number(1, 5)),
      costUsd: usd,
    },
    optional: { repeat: count },
  },
  noise_margin: {
    required: {
      iteration,
      train: number(0),
      holdout: nullable(number(0)),
      repeats: arrayOf(trainHoldout),
      mean: trainHoldout,
    },
  },
  iteration_finished: {
    required: {
      iteration,
      status: oneOf(ITERATION_STATUSES),
      candidate: nullable(candidate),
      train: nullable(score),
      holdout: nullable(score),
      incumbentBefore: nullable(score),
      delta: nullable(number()),
      hypothesis: nullable(string()),
      promptSha256: nullable(sha256),
      costUsd: usd,
      seconds: number(0),
    },
    optional: { errorKind: oneOf(ERROR_KINDS), message: string() },
  },
  commit: { required: { iteration, sha: matching(/^[0-9a-f]{7,64}$/, 'a git commit id') } },
  spend: { required: { role, usd, calls: count }, optional: { iteration, phase } },
  final_evaluation: {
    required: {
      baseline: trainHoldout,
      best: object({ required: { iteration, train: nullable(score), holdout: nullable(score) } }),
    },
  },
  run_stopped: { required: { reason: oneOf(STOP_REASONS), message: string() } },
  warning: { required: { message: string(1) }, optional: { iteration } },
};

const EVENT_CHECKS = new Map(
  Object.entries(BODIES).map(([type, body]) => [
    type,
    object({
      required: {
        v: literal(EVENT_VERSION),
        at: (value) => (isDateTime(value) ? undefined : problem('expected a date-time with a time zone')),
        type: literal(type),
        ...body.required,
      },
      ...(body.optional === undefined ? {} : { optional: body.optional }),
    }),
  ]),
);

export function checkEvent(value: unknown): EventCheck {
  if (!isRecord(value)) return { ok: false, message: 'expected an object' };
  const check = typeof value['type'] === 'string' ? EVENT_CHECKS.get(value['type']) : undefined;
  if (check === undefined) {
    return { ok: false, message: `type: not an event type (${JSON.stringify(value['type'] ?? null)})` };
  }
  const found = check(value);
  if (found === undefined) return { ok: true, event: value as RunEvent };
  const where = found.path.length > 0 ? `${found.path.join('.')}: ` : '';
  return { ok: false, message: `${where}${found.message}` };
}
