/**
 * The model settings the built-in judge and grader read as JSON on stdin (SPEC 6), or build
 * from `--model provider:model` when run by hand.
 */
import * as z from 'zod';
import { PROVIDERS } from '../experiment/names.js';
import type { ModelEntry } from '../experiment/schema.js';

const ProviderName = z.enum(PROVIDERS);

export const ModelSettings = z.strictObject({
  provider: ProviderName,
  model: z.string().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().min(1).optional(),
  /** Judge only: independent scorings per output, averaged. */
  samples: z.number().int().min(1).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  /** Calls in flight at once inside the judge. */
  concurrency: z.number().int().min(1).optional(),
  timeout_s: z.number().positive().optional(),
  max_retries: z.number().int().min(0).optional(),
});
export type ModelSettings = z.infer<typeof ModelSettings>;

export type SettingsParse = { ok: true; settings: ModelSettings } | { ok: false; message: string };

export function parseSettingsJson(text: string): SettingsParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: 'the model settings on stdin are not valid JSON' };
  }
  const parsed = ModelSettings.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
    return {
      ok: false,
      message: `the model settings on stdin are invalid (${where}${issue?.message ?? 'unknown'})`,
    };
  }
  return { ok: true, settings: parsed.data };
}

/** `anthropic:claude-sonnet-4-5`, `openai:gpt-4o-mini`, `sim` or `sim:anything`. */
export function parseModelFlag(flag: string): SettingsParse {
  const at = flag.indexOf(':');
  const provider = at < 0 ? flag : flag.slice(0, at);
  const model = at < 0 ? '' : flag.slice(at + 1);
  const name = ProviderName.safeParse(provider);
  if (!name.success || name.data === 'command') {
    const usable = PROVIDERS.filter((p) => p !== 'command').join(', ');
    return { ok: false, message: `--model ${flag}: the provider must be one of ${usable}` };
  }
  if (model === '' && (name.data === 'anthropic' || name.data === 'openai')) {
    return { ok: false, message: `--model ${flag}: name the model too, e.g. ${name.data}:model-name` };
  }
  return { ok: true, settings: { provider: name.data, ...(model === '' ? {} : { model }) } };
}

export function settingsToEntry(settings: ModelSettings): ModelEntry {
  const { samples: _samples, concurrency: _concurrency, ...entry } = settings;
  return entry;
}

/** What the runner sends a built-in judge or grader: it speaks HTTP to the proxy, whatever the real provider. */
export function proxiedSettings(
  entry: ModelEntry,
  options: { timeoutMs: number; samples?: number },
): ModelSettings {
  return {
    provider: entry.provider === 'openai' ? 'openai' : 'anthropic',
    model: entry.model ?? entry.provider,
    ...(entry.temperature === undefined ? {} : { temperature: entry.temperature }),
    ...(entry.max_tokens === undefined ? {} : { max_tokens: entry.max_tokens }),
    ...(options.samples === undefined ? {} : { samples: options.samples }),
    // The runner's client limits, retries and times calls; the judge must not add its own on top.
    concurrency: 64,
    max_retries: 0,
    timeout_s: Math.max(1, Math.ceil(options.timeoutMs / 1000)),
  };
}
