/**
 * The provider registry: one record per provider a model entry may name. Everything that
 * differs by provider outside its adapter reads this table: the `--provider` choices
 * (cli/program.ts), the experiment schema's `provider` enum (experiment/schema.ts) and the
 * judge's model settings (protocol/model-settings.ts), the entry checks
 * (experiment/resolve-models.ts, load-experiment.ts, overrides.ts), which key a call needs
 * and where its API lives (providers/env.ts, so experiment/missing-keys.ts), prices
 * (providers/prices.ts), the batch discount and batch API (providers/discounts.ts,
 * batch/batch-runner.ts), the endpoint limiter (limiter.ts) and the constructor
 * (create-provider.ts).
 *
 * A new provider touches two files: its adapter (src/providers/adapters/<name>.ts, a
 * `Provider`, see types.ts) and this one (its name in PROVIDERS and its row in
 * PROVIDER_REGISTRY; the compiler refuses a name without a row). With a batch API, a third:
 * its `BatchSupport` (src/providers/batch/<name>-batch.ts). Users read about it in
 * docs/providers.md.
 *
 * Kept free of the adapters' code: constructors load on demand, so a process that only reads
 * the table (`--help`, the schema) never pays for an SDK or execa.
 */
import type { ModelEntry } from '../experiment/schema.js';
import { claudeBinary, codexBinary } from './adapters/cli-binaries.js';
import type { BatchSupport } from './batch/batch-api.js';
import type { Provider } from './types.js';

export const PROVIDERS = ['anthropic', 'openai', 'claude-cli', 'codex-cli', 'command', 'sim'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export interface ProviderDeps {
  env: NodeJS.ProcessEnv;
  /** Where a `command` provider's relative argv paths resolve (the project root). */
  cwd?: string;
  /** Told about things that do not fail a call (a CLI ignoring a setting). */
  onWarning?: (message: string) => void;
}

/** Where a call's price comes from; an entry's own `price:` always wins (prices.ts). */
export type PriceSource =
  /** The built-in table by model name (prices.ts BUILT_IN_PRICES), after these aliases. */
  | {
      from: 'table';
      aliases?: Readonly<Record<string, string>>;
      /** The CLI reports each call's cost; a plan with an unknown model assumes this one's price. */
      reportsCost?: { defaultModel: string; by: string };
    }
  /** Costs nothing. */
  | { from: 'free' }
  /** Only the entry's own `price:` (a program reusing a well-known name is not billed by that vendor). */
  | { from: 'entry' };

export interface ProviderRecord {
  /** The variable holding the key when the entry names none (`api_key_env`); absent: takes no key. */
  key?: {
    env: string;
    /** `at-default-url`: local compatible servers (Ollama, vLLM, LM Studio) need none. */
    required: 'always' | 'at-default-url';
  };
  /** An HTTP API: the variable that moves its root, and the public root. */
  baseUrl?: { env: string; default: string };
  /** `model:` is required; the example the loader's error gives. */
  modelExample?: string;
  /** Runs the user's agent CLI: takes `binary:`, has no sampling settings, offers no `tools:`. */
  agentCli?: true;
  /** Variables an agent CLI reads its own login from (role-env.ts): kept in its environment. */
  loginKeys?: readonly string[];
  prices: PriceSource;
  /** Its prompt cache: the shortest prefix (tokens) it serves, by model name (prices.ts normaliseModelName). */
  promptCache?: { minimumTokens: (model: string) => number };
  /** Its batch API (`--batch`, half price), loaded when a run batches; absent: calls one by one. */
  batch?: () => Promise<BatchSupport>;
  /** What the endpoint limiter counts as one server (limiter.ts). */
  endpoint: (entry: ModelEntry, env: NodeJS.ProcessEnv, baseUrl: string) => string;
  create: (entry: ModelEntry, deps: ProviderDeps) => Promise<Provider>;
}

function processDeps(deps: ProviderDeps): Pick<ProviderDeps, 'env' | 'onWarning'> {
  return { env: deps.env, ...(deps.onWarning === undefined ? {} : { onWarning: deps.onWarning }) };
}

const httpEndpoint: ProviderRecord['endpoint'] = (entry, _env, baseUrl) => `${entry.provider} ${baseUrl}`;

export const PROVIDER_REGISTRY: Readonly<Record<ProviderName, ProviderRecord>> = {
  anthropic: {
    key: { env: 'ANTHROPIC_API_KEY', required: 'always' },
    baseUrl: { env: 'ANTHROPIC_BASE_URL', default: 'https://api.anthropic.com' },
    modelExample: 'claude-sonnet-4-5',
    prices: { from: 'table' },
    // By model, as published late 2025.
    promptCache: {
      minimumTokens: (model) =>
        /opus-4-5|haiku-4-5/.test(model) ? 4096 : /3-haiku|3-5-haiku/.test(model) ? 2048 : 1024,
    },
    batch: async () => (await import('./batch/anthropic-batch.js')).anthropicBatch,
    endpoint: httpEndpoint,
    create: async (entry, deps) =>
      (await import('./adapters/anthropic.js')).createAnthropicProvider(entry, { env: deps.env }),
  },
  openai: {
    key: { env: 'OPENAI_API_KEY', required: 'at-default-url' },
    baseUrl: { env: 'OPENAI_BASE_URL', default: 'https://api.openai.com/v1' },
    modelExample: 'gpt-4o-mini',
    prices: { from: 'table' },
    promptCache: { minimumTokens: () => 1024 },
    batch: async () => (await import('./batch/openai-batch.js')).openAiBatch,
    endpoint: httpEndpoint,
    create: async (entry, deps) =>
      (await import('./adapters/openai.js')).createOpenAiProvider(entry, { env: deps.env }),
  },
  'claude-cli': {
    agentCli: true,
    loginKeys: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
    prices: {
      from: 'table',
      // Claude Code's model aliases (`--model sonnet`): the models Claude Code 2.1.332 sends for
      // them, read off its requests. Haiku 5.5 has no single published price, so it stays unpriced
      // (Claude Code reports each call's cost anyway).
      aliases: { sonnet: 'claude-sonnet-5-5', opus: 'claude-opus-5-5', haiku: 'claude-haiku-5-5' },
      // What Claude Code 2.1.332 runs without `--model` on an API key; a subscription's may differ.
      reportsCost: { defaultModel: 'claude-opus-5-5', by: 'Claude Code' },
    },
    endpoint: (entry, env) => `claude-cli ${claudeBinary(entry, env)}`,
    create: async (entry, deps) =>
      (await import('./adapters/claude-cli.js')).createClaudeCliProvider(entry, processDeps(deps)),
  },
  'codex-cli': {
    agentCli: true,
    loginKeys: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
    prices: { from: 'table' },
    endpoint: (entry, env) => `codex-cli ${codexBinary(entry, env)}`,
    create: async (entry, deps) =>
      (await import('./adapters/codex-cli.js')).createCodexCliProvider(entry, processDeps(deps)),
  },
  command: {
    prices: { from: 'entry' },
    endpoint: (entry) => `command ${JSON.stringify(entry.command ?? [])}`,
    create: async (entry, deps) =>
      (await import('./adapters/command.js')).createCommandProvider(entry, {
        env: deps.env,
        ...(deps.cwd === undefined ? {} : { cwd: deps.cwd }),
      }),
  },
  sim: {
    prices: { from: 'free' },
    endpoint: () => 'sim',
    create: async (entry) => (await import('./sim/sim-provider.js')).createSimProvider(entry),
  },
};

export function providerRecord(name: ProviderName): ProviderRecord {
  return PROVIDER_REGISTRY[name];
}

/** The providers whose record has this property, in registry order. */
export function providersWhere(test: (record: ProviderRecord) => boolean): ProviderName[] {
  return PROVIDERS.filter((name) => test(PROVIDER_REGISTRY[name]));
}

/** `anthropic, openai`: the HTTP API providers, for messages that point to them. */
export function apiProviderList(): string {
  return providersWhere((record) => record.baseUrl !== undefined).join(', ');
}
