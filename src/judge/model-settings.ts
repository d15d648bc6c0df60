/**
 * The model settings the built-in judge and grader read as JSON on stdin (SPEC 6), or build
 * from `--model provider:model` when run by hand.
 */
import { PROVIDERS } from '../experiment/provider-names.js';
import { isRecord } from '../is-record.js';
import type { ModelEntry, ProviderName } from '../experiment/schema.js';

export interface ModelSettings {
  provider: ProviderName;
  model?: string;
  temperature?: number;
  max_tokens?: number;
  /** Judge only: independent scorings per output, averaged. */
  samples?: number;
  params?: Record<string, unknown>;
  /** Calls in flight at once inside the judge. */
  concurrency?: number;
  timeout_s?: number;
  max_retries?: number;
}

export type SettingsParse = { ok: true; settings: ModelSettings } | { ok: false; message: string };

function isProviderName(value: unknown): value is ProviderName {
  return typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value);
}

type Rule = (value: unknown) => string | undefined;
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const wholeAtLeast =
  (min: number): Rule =>
  (value) =>
    isNumber(value) && Number.isInteger(value) && value >= min
      ? undefined
      : `expected a whole number >= ${min}`;

/** Each key the settings may hold, and what it must be. Any other key is refused. */
const RULES: Record<Exclude<keyof ModelSettings, 'provider'>, Rule> = {
  model: (value) => (typeof value === 'string' && value !== '' ? undefined : 'expected a model name'),
  temperature: (value) =>
    isNumber(value) && value >= 0 && value <= 2 ? undefined : 'expected a number from 0 to 2',
  max_tokens: wholeAtLeast(1),
  samples: wholeAtLeast(1),
  params: (value) => (isRecord(value) ? undefined : 'expected an object'),
  concurrency: wholeAtLeast(1),
  timeout_s: (value) => (isNumber(value) && value > 0 ? undefined : 'expected a positive number'),
  max_retries: wholeAtLeast(0),
};

/**
 * The settings JSON on stdin, checked by hand (the judge and grader processes load no zod):
 * a known provider, every other key from RULES and valid, nothing else.
 */
export function parseSettingsJson(text: string): SettingsParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: 'the model settings on stdin are not valid JSON' };
  }
  const invalid = (why: string): SettingsParse => ({
    ok: false,
    message: `the model settings on stdin are invalid (${why})`,
  });
  if (!isRecord(json)) return invalid('expected an object');
  if (!isProviderName(json['provider'])) {
    return invalid(`provider: expected one of ${PROVIDERS.join(', ')}`);
  }
  for (const [key, value] of Object.entries(json)) {
    if (key === 'provider') continue;
    const rule = RULES[key as keyof typeof RULES];
    if (rule === undefined) return invalid(`unknown key "${key}"`);
    if (value === undefined) continue;
    const problem = rule(value);
    if (problem !== undefined) return invalid(`${key}: ${problem}`);
  }
  return { ok: true, settings: json as unknown as ModelSettings };
}

/** `anthropic:claude-sonnet-4-5`, `openai:gpt-4o-mini`, `sim` or `sim:anything`. */
export function parseModelFlag(flag: string): SettingsParse {
  const at = flag.indexOf(':');
  const provider = at < 0 ? flag : flag.slice(0, at);
  const model = at < 0 ? '' : flag.slice(at + 1);
  if (!isProviderName(provider) || provider === 'command') {
    const usable = PROVIDERS.filter((p) => p !== 'command').join(', ');
    return { ok: false, message: `--model ${flag}: the provider must be one of ${usable}` };
  }
  if (model === '' && (provider === 'anthropic' || provider === 'openai')) {
    return { ok: false, message: `--model ${flag}: name the model too, e.g. ${provider}:model-name` };
  }
  return { ok: true, settings: { provider, ...(model === '' ? {} : { model }) } };
}

export function settingsToEntry(settings: ModelSettings): ModelEntry {
  const { samples: _samples, concurrency: _concurrency, ...entry } = settings;
  return entry;
}

/** What the runner sends a built-in judge or grader: it speaks HTTP to the proxy, whatever the real provider. */
export function proxiedSettings(
  entry: ModelEntry,
  options: { timeoutMs: number; samples?: number; endpointLimit: number },
): ModelSettings {
  return {
    provider: entry.provider === 'openai' ? 'openai' : 'anthropic',
    model: entry.model ?? entry.provider,
    ...(entry.temperature === undefined ? {} : { temperature: entry.temperature }),
    ...(entry.max_tokens === undefined ? {} : { max_tokens: entry.max_tokens }),
    ...(options.samples === undefined ? {} : { samples: options.samples }),
    // The runner's client limits, retries and times calls; the judge must not add its own on top.
    // It keeps twice the endpoint's limit in flight: the calls the proxy is making and as many
    // waiting behind them, so a slot that frees never waits for the judge's next request, while
    // the runner does not have to take in every request of a large evaluation before it can pass
    // the first ones on (measured: BENCHMARKS.md, benchmark 1).
    concurrency: 2 * Math.max(1, options.endpointLimit),
    max_retries: 0,
    timeout_s: Math.max(1, Math.ceil(options.timeoutMs / 1000)),
  };
}
