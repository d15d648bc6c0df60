/**
 * Where an adapter finds its endpoint and key (docs/design/experiment-format.md), as the
 * provider's registry row names them (registry.ts `key`, `baseUrl`). Keys are read from the
 * environment only at call time and never leave the adapter; these helpers name the variable,
 * not the value.
 */
import type { ModelEntry } from '../experiment/schema.js';
import { PROVIDER_REGISTRY } from './registry.js';

/** The environment variable holding this entry's API key, or undefined when it takes none. */
export function apiKeyEnvName(entry: ModelEntry): string | undefined {
  return entry.api_key_env ?? PROVIDER_REGISTRY[entry.provider].key?.env;
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * The API root for HTTP providers: the entry's base_url, then the row's variable
 * (ANTHROPIC_BASE_URL, OPENAI_BASE_URL), then the public default. Anthropic roots have no
 * `/v1`, OpenAI ones do. Returns '' for providers that are not HTTP APIs.
 */
export function resolveBaseUrl(entry: ModelEntry, env: NodeJS.ProcessEnv): string {
  const baseUrl = PROVIDER_REGISTRY[entry.provider].baseUrl;
  if (baseUrl === undefined) return '';
  return stripTrailingSlash(entry.base_url ?? nonEmpty(env[baseUrl.env]) ?? baseUrl.default);
}

/**
 * Whether a call cannot work without a key. Under `at-default-url` (OpenAI: local compatible
 * servers such as Ollama, vLLM, LM Studio, llama.cpp need none) a non-default base URL makes
 * the key optional unless the entry names a key variable explicitly.
 */
export function keyIsRequired(entry: ModelEntry, env: NodeJS.ProcessEnv = {}): boolean {
  const record = PROVIDER_REGISTRY[entry.provider];
  if (record.key === undefined) return false;
  if (record.key.required === 'always' || entry.api_key_env !== undefined) return true;
  return resolveBaseUrl(entry, env) === record.baseUrl?.default;
}

/** The key's value from the environment, or undefined when unset or blank. */
export function readApiKey(entry: ModelEntry, env: NodeJS.ProcessEnv): string | undefined {
  const name = apiKeyEnvName(entry);
  return name === undefined ? undefined : nonEmpty(env[name]);
}
