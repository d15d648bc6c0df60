/**
 * Where an adapter finds its endpoint and key (docs/design/experiment-format.md). Keys are read
 * from the environment only at call time and never leave the adapter; these helpers name the
 * variable, not the value.
 */
import type { ModelEntry } from '../experiment/schema.js';

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** The environment variable holding this entry's API key, or undefined when it takes none. */
export function apiKeyEnvName(entry: ModelEntry): string | undefined {
  if (entry.api_key_env !== undefined) return entry.api_key_env;
  if (entry.provider === 'anthropic') return 'ANTHROPIC_API_KEY';
  if (entry.provider === 'openai') return 'OPENAI_API_KEY';
  return undefined;
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * The API root for HTTP providers: the entry's base_url, then ANTHROPIC_BASE_URL /
 * OPENAI_BASE_URL, then the public default. Anthropic roots have no `/v1`, OpenAI ones do.
 * Returns '' for providers that are not HTTP APIs.
 */
export function resolveBaseUrl(entry: ModelEntry, env: NodeJS.ProcessEnv): string {
  if (entry.provider === 'anthropic') {
    return stripTrailingSlash(
      entry.base_url ?? nonEmpty(env['ANTHROPIC_BASE_URL']) ?? DEFAULT_ANTHROPIC_BASE_URL,
    );
  }
  if (entry.provider === 'openai') {
    return stripTrailingSlash(entry.base_url ?? nonEmpty(env['OPENAI_BASE_URL']) ?? DEFAULT_OPENAI_BASE_URL);
  }
  return '';
}

/**
 * Whether a call cannot work without a key. Local OpenAI-compatible servers (Ollama, vLLM,
 * LM Studio, llama.cpp) need none, so any non-default OpenAI base URL makes the key optional
 * unless the entry names a key variable explicitly.
 */
export function keyIsRequired(entry: ModelEntry, env: NodeJS.ProcessEnv = {}): boolean {
  if (entry.provider === 'anthropic') return true;
  if (entry.provider === 'openai') {
    if (entry.api_key_env !== undefined) return true;
    return resolveBaseUrl(entry, env) === DEFAULT_OPENAI_BASE_URL;
  }
  return false;
}

/** The key's value from the environment, or undefined when unset or blank. */
export function readApiKey(entry: ModelEntry, env: NodeJS.ProcessEnv): string | undefined {
  const name = apiKeyEnvName(entry);
  return name === undefined ? undefined : nonEmpty(env[name]);
}
