/**
 * promptfoo providers → autoresearch model entries, where an equivalent exists: OpenAI and
 * OpenAI-compatible endpoints (`openai:…`, `apiBaseUrl`/`apiHost`, Ollama), Anthropic's
 * Messages API and `exec:` programs (→ provider `command`, argv split without a shell).
 * Keys in a config are never copied: autoresearch reads them from the environment only.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ModelEntry } from '../../experiment/schema.js';
import { portablePath } from './file-ref.js';
import type { UnmappedItem } from './findings.js';
import { splitArgv } from './split-argv.js';
import { isRecord } from '../../is-record.js';

export interface ProviderSpec {
  id: string;
  options: Record<string, unknown>;
  where: string;
}

/** A provider's `response_format` and `tools` as written, for provider-shape.ts to read. */
export type RawShape = Partial<Record<'response_format' | 'tools', unknown>>;

export interface MappedModel {
  entry: ModelEntry;
  /** The promptfoo id (and label), for the comment beside the entry. */
  origin: string;
  /** Where the provider sits in the config, e.g. `providers[0]`. */
  where: string;
  shape: RawShape;
}

export interface ProviderMapping {
  model?: MappedModel;
  unmapped: UnmappedItem[];
  notes: string[];
}

interface Context {
  configDir: string;
  projectRoot: string;
}

const OLLAMA_BASE_URL = 'http://localhost:11434/v1';
/** Config keys passed through to the API untouched (`params`). */
const PASS_THROUGH = new Set([
  'top_p',
  'top_k',
  'stop',
  'stop_sequences',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'max_completion_tokens',
  'reasoning_effort',
]);
/** Config keys that become the experiment's `output:` and `tools:` (provider-shape.ts), not model settings. */
const SHAPE_KEYS = new Set(['response_format', 'tools']);
const OPENAI_NOT_CHAT = new Set([
  'completion',
  'embedding',
  'embeddings',
  'assistant',
  'realtime',
  'image',
  'moderation',
  'transcription',
  'chatkit',
  'codex-sdk',
  'agents',
]);

function isProviderMapEntry(item: Record<string, unknown>): boolean {
  const [id, options] = Object.entries(item)[0] as [string, unknown];
  return id.includes(':') || isRecord(options);
}

/** The forms promptfoo accepts: a string, `{ id, … }`, `{ "<id>": options }`, or a map of them. */
export function listProviders(
  raw: unknown,
  key: string,
): { specs: ProviderSpec[]; unmapped: UnmappedItem[] } {
  const specs: ProviderSpec[] = [];
  const unmapped: UnmappedItem[] = [];
  const add = (item: unknown, where: string): void => {
    if (typeof item === 'string') specs.push({ id: item.trim(), options: {}, where });
    else if (isRecord(item) && typeof item['id'] === 'string')
      specs.push({ id: item['id'].trim(), options: item, where });
    else if (isRecord(item) && Object.keys(item).length === 1 && isProviderMapEntry(item)) {
      const [id, options] = Object.entries(item)[0] as [string, unknown];
      specs.push({ id: id.trim(), options: isRecord(options) ? options : {}, where });
    } else
      unmapped.push({
        subject: 'a provider without an id',
        where,
        why: 'autoresearch needs to know which API or program to call',
      });
  };
  if (Array.isArray(raw)) {
    for (const [i, item] of raw.entries()) add(item, `${key}[${i}]`);
  } else if (isRecord(raw) && typeof raw['id'] !== 'string' && Object.keys(raw).length > 1) {
    for (const [id, options] of Object.entries(raw)) add({ [id]: options }, `${key}.${id}`);
  } else if (raw !== undefined) add(raw, key);
  return { specs, unmapped };
}

type Base = { entry: Partial<ModelEntry> & Pick<ModelEntry, 'provider'>; notes: string[] } | { why: string };

function baseEntry(spec: ProviderSpec, ctx: Context): Base {
  const id = spec.id;
  const openai = /^openai:(?:(chat|responses):)?([^:]+)$/.exec(id);
  if (openai) {
    const model = openai[2] as string;
    if (openai[1] === undefined && OPENAI_NOT_CHAT.has(model))
      return { why: 'only chat models map to autoresearch providers' };
    const notes =
      openai[1] === 'responses'
        ? [
            `${id}: mapped to provider \`openai\`, which uses the Chat Completions API rather than the Responses API`,
          ]
        : [];
    return { entry: { provider: 'openai', model }, notes };
  }
  if (/^openai:/.test(id)) return { why: 'only chat models map to autoresearch providers' };
  const anthropic = /^anthropic:(?:messages:(.+)|(claude-[^:]+))$/.exec(id);
  if (anthropic)
    return { entry: { provider: 'anthropic', model: (anthropic[1] ?? anthropic[2]) as string }, notes: [] };
  const ollama = /^ollama:(?:chat:)?([^:]+(?::[^:]+)?)$/.exec(id);
  if (ollama && !id.startsWith('ollama:completion:') && !id.startsWith('ollama:embedding')) {
    return {
      entry: { provider: 'openai', model: ollama[1] as string, base_url: OLLAMA_BASE_URL },
      notes: [
        `${id}: mapped to Ollama's OpenAI-compatible endpoint ${OLLAMA_BASE_URL}; change base_url if Ollama runs elsewhere`,
      ],
    };
  }
  const exec = /^exec:\s*([\s\S]+)$/.exec(id);
  if (exec) {
    const split = splitArgv((exec[1] as string).trim());
    if (!split.ok) return { why: `the command line cannot be run without a shell: ${split.reason}` };
    return {
      entry: { provider: 'command', command: rebaseArgv(split.argv, ctx) },
      notes: [
        `${id}: promptfoo passes the prompt to exec: programs as an argument; the \`command\` provider writes it to the program's stdin instead (or to a file with \`input: file\`), so adapt the program`,
      ],
    };
  }
  return {
    why: 'autoresearch talks to Anthropic, OpenAI-compatible endpoints, the Claude Code and Codex CLIs and plain programs; point an `openai` entry with `base_url` at this service if it speaks the OpenAI API',
  };
}

/**
 * promptfoo runs exec: commands from the config's folder, autoresearch from the project root;
 * arguments naming a file beside the config are rewritten so they still find it.
 */
function rebaseArgv(argv: string[], ctx: Context): string[] {
  if (resolve(ctx.configDir) === resolve(ctx.projectRoot)) return argv;
  return argv.map((arg, i) => {
    if (arg.startsWith('-') || isAbsolute(arg)) return arg;
    if (i === 0 && !arg.includes('/')) return arg;
    const absolute = resolve(ctx.configDir, arg);
    if (!existsSync(absolute)) return arg;
    const path = portablePath(ctx.projectRoot, absolute, ctx.projectRoot);
    return isAbsolute(path) || path.startsWith('.') ? path : `./${path}`;
  });
}

/** docs/design/experiment-format.md: Anthropic roots have no `/v1`, OpenAI-compatible ones do. */
function baseUrlFor(entry: Partial<ModelEntry>, url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return entry.provider === 'anthropic' ? trimmed.replace(/\/v1$/, '') : trimmed;
}

function mapConfig(
  entry: Partial<ModelEntry>,
  config: Record<string, unknown>,
  where: string,
  unmapped: UnmappedItem[],
  shape: RawShape,
): void {
  const params: Record<string, unknown> = {};
  const http = entry.provider === 'openai' || entry.provider === 'anthropic';
  for (const [key, value] of Object.entries(config)) {
    const at = `${where}.config.${key}`;
    if (key === 'temperature' && typeof value === 'number') entry.temperature = value;
    else if (key === 'max_tokens' && typeof value === 'number') entry.max_tokens = value;
    else if (key === 'apiBaseUrl' && http && typeof value === 'string')
      entry.base_url = baseUrlFor(entry, value);
    else if (key === 'apiHost' && entry.provider === 'openai' && typeof value === 'string')
      entry.base_url = `https://${value.replace(/\/+$/, '')}/v1`;
    else if (key === 'apiKeyEnvar' && http && typeof value === 'string') entry.api_key_env = value;
    else if (SHAPE_KEYS.has(key)) shape[key as keyof RawShape] = value;
    else if (key === 'tool_choice')
      unmapped.push({
        subject: 'provider config `tool_choice`',
        where: at,
        why: 'autoresearch lets the model decide whether to call a tool (auto)',
      });
    else if (key === 'apiKey') {
      unmapped.push({
        subject: 'an API key written in the config',
        where: at,
        why: 'keys are never written to experiment files; set the key in the environment (or name the variable with api_key_env)',
      });
    } else if (PASS_THROUGH.has(key) && http) params[key] = value;
    else
      unmapped.push({
        subject: `provider config \`${key}\``,
        where: at,
        why: 'no equivalent setting on an autoresearch model entry',
      });
  }
  if (Object.keys(params).length > 0) entry.params = params;
}

export function mapProvider(spec: ProviderSpec, ctx: Context): ProviderMapping {
  const unmapped: UnmappedItem[] = [];
  const base = baseEntry(spec, ctx);
  if ('why' in base)
    return {
      unmapped: [{ subject: `provider \`${spec.id}\``, where: spec.where, why: base.why }],
      notes: [],
    };
  const entry: Partial<ModelEntry> = { ...base.entry };
  const shape: RawShape = {};
  for (const [key, value] of Object.entries(spec.options)) {
    if (key === 'id' || key === 'label') continue;
    if (key === 'config' && typeof value === 'object' && value !== null) {
      mapConfig(entry, value as Record<string, unknown>, spec.where, unmapped, shape);
    } else {
      unmapped.push({
        subject: `provider option \`${key}\``,
        where: spec.where,
        why: 'no equivalent setting on an autoresearch model entry',
      });
    }
  }
  // Whatever the schema refuses (a temperature above 2, a malformed URL…) is reported, not written.
  let parsed = ModelEntry.safeParse(entry);
  while (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0];
    if (typeof key !== 'string' || key === 'provider' || !(key in entry)) {
      return {
        unmapped: [
          ...unmapped,
          {
            subject: `provider \`${spec.id}\``,
            where: spec.where,
            why: issue?.message ?? 'invalid settings',
          },
        ],
        notes: [],
      };
    }
    unmapped.push({
      subject: `provider setting \`${key}\``,
      where: spec.where,
      why: `not a valid ${key}: ${issue?.message ?? 'invalid'}`,
    });
    delete (entry as Record<string, unknown>)[key];
    parsed = ModelEntry.safeParse(entry);
  }
  const label = typeof spec.options['label'] === 'string' ? ` (${spec.options['label']})` : '';
  return {
    model: { entry: parsed.data, origin: `${spec.id}${label}`, where: spec.where, shape },
    unmapped,
    notes: base.notes,
  };
}
