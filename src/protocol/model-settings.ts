/**
 * The model settings the built-in judge and grader read as JSON on stdin
 * (docs/design/judge-protocol.md), or build from `--model provider:model` when run by hand. A
 * protocol between the runner (which plans them: src/sandbox/plan-program.ts) and both built-in
 * programs, so neither's folder holds it.
 */
import * as z from 'zod';
import { PROVIDERS, providerRecord } from '../providers/registry.js';
import type { ModelEntry, ProviderName } from '../experiment/schema.js';

const wholeAtLeast = (min: number) => {
  const problem = `expected a whole number >= ${min}`;
  return z.int({ error: problem }).min(min, problem).optional();
};

/** The settings: a known provider, every other key optional and valid, nothing else. */
export const ModelSettings = z.strictObject(
  {
    provider: z.enum(PROVIDERS, { error: `expected one of ${PROVIDERS.join(', ')}` }),
    model: z.string({ error: 'expected a model name' }).min(1, 'expected a model name').optional(),
    temperature: z
      .number({ error: 'expected a number from 0 to 2' })
      .min(0, 'expected a number from 0 to 2')
      .max(2, 'expected a number from 0 to 2')
      .optional(),
    max_tokens: wholeAtLeast(1),
    /** Judge only: independent scorings per output, averaged. */
    samples: wholeAtLeast(1),
    params: z.record(z.string(), z.unknown(), { error: 'expected an object' }).optional(),
    /** Calls in flight at once inside the judge. */
    concurrency: wholeAtLeast(1),
    timeout_s: z
      .number({ error: 'expected a positive number' })
      .positive('expected a positive number')
      .optional(),
    max_retries: wholeAtLeast(0),
    /** Set by the runner: the model is its loopback proxy, which takes the sample and retry hints. */
    proxy_hints: z.boolean({ error: 'expected true or false' }).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `unknown key "${issue.keys[0] ?? ''}"` : 'expected an object',
  },
);
export type ModelSettings = z.infer<typeof ModelSettings>;

export type SettingsParse = { ok: true; settings: ModelSettings } | { ok: false; message: string };

function isProviderName(value: string): value is ProviderName {
  return (PROVIDERS as readonly string[]).includes(value);
}

/** The settings JSON on stdin. */
export function parseSettingsJson(text: string): SettingsParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: 'the model settings on stdin are not valid JSON' };
  }
  const parsed = ModelSettings.safeParse(json);
  if (parsed.success) return { ok: true, settings: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
  return {
    ok: false,
    message: `the model settings on stdin are invalid (${where}${issue?.message ?? 'not valid'})`,
  };
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
  if (model === '' && providerRecord(provider).modelExample !== undefined) {
    return { ok: false, message: `--model ${flag}: name the model too, e.g. ${provider}:model-name` };
  }
  return { ok: true, settings: { provider, ...(model === '' ? {} : { model }) } };
}

export function settingsToEntry(settings: ModelSettings): ModelEntry {
  const { samples: _samples, concurrency: _concurrency, proxy_hints: _hints, ...entry } = settings;
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
    proxy_hints: true,
  };
}
