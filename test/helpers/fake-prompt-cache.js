/**
 * The fake server's prompt cache: what each provider's usage reports about cached input, by
 * that provider's rules, so cost figures computed from it are not an artefact of the fake.
 *
 * Anthropic caches only what the request marks: each content block (tool, system block,
 * message block) with `cache_control` ends a cacheable prefix (tools, then system, then
 * messages, in order). A prefix shorter than the model's minimum is not cached. A request whose
 * longest marked prefix was cached before (same model, within the TTL) reads it
 * (`cache_read_input_tokens`); otherwise the longest earlier marked prefix that was cached is
 * read and the rest up to the last mark is written (`cache_creation_input_tokens`);
 * `input_tokens` counts only what comes after. OpenAI caches automatically: a prompt of at
 * least 1,024 tokens that shares a prefix of at least 1,024 tokens with an earlier one (same
 * model) reports that shared prefix, in steps of 128 tokens, as `cached_tokens` (included in
 * `prompt_tokens`).
 *
 * Tokens are counted like the rest of the fake: about four characters each.
 */
import { createHash } from 'node:crypto';

const FIVE_MINUTES = 5 * 60 * 1000;
const OPENAI_MINIMUM = 1024;
const OPENAI_STEP = 128;
const CHARS_PER_TOKEN = 4;

/** Anthropic's minimum cacheable prefix by model (their published table; 1,024 otherwise). */
export function anthropicCacheMinimum(model) {
  if (/haiku-4-5|opus-4-5|opus-4-6/.test(model)) return 4096;
  if (/sonnet-4-6|haiku-3/.test(model) || /3-haiku|3-5-haiku/.test(model)) return 2048;
  return 1024;
}

function digest(text) {
  return createHash('sha256').update(text).digest('hex');
}

function tokensOf(chars) {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** A block's text as it counts toward the prompt (its `cache_control` mark left out). */
function blockText(block) {
  if (typeof block === 'string') return block;
  const { cache_control: _mark, ...rest } = block;
  return typeof rest.text === 'string' && Object.keys(rest).length <= 2 ? rest.text : JSON.stringify(rest);
}

/** The request as a sequence of blocks in cache order, each with whether it is marked. */
function anthropicBlocks(body) {
  const blocks = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) blocks.push(tool);
  if (typeof body.system === 'string') blocks.push(body.system);
  else if (Array.isArray(body.system)) blocks.push(...body.system);
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (typeof message.content === 'string') blocks.push(`${message.role}:${message.content}`);
    else if (Array.isArray(message.content)) blocks.push(...message.content);
  }
  return blocks.map((block) => ({
    text: blockText(block),
    marked: typeof block === 'object' && block !== null && block.cache_control !== undefined,
  }));
}

/** One server's cache. `now` is injectable so tests can step past the TTL. */
export function createPromptCache(options = {}) {
  const ttlMs = options.ttlMs ?? FIVE_MINUTES;
  const minimum = options.anthropicMinimum ?? anthropicCacheMinimum;
  const now = options.now ?? Date.now;
  /** prefix key → expiry time */
  const entries = new Map();

  function live(key) {
    const until = entries.get(key);
    if (until === undefined) return false;
    if (until < now()) {
      entries.delete(key);
      return false;
    }
    return true;
  }

  function keep(key) {
    entries.set(key, now() + ttlMs);
  }

  /** `{ cacheWrite, cacheRead }` in tokens, and the request's total input tokens. */
  function anthropic(body) {
    const model = String(body.model ?? '');
    const blocks = anthropicBlocks(body);
    let text = '';
    const prefixes = [];
    for (const block of blocks) {
      text += block.text;
      if (block.marked)
        prefixes.push({ key: `anthropic:${model}:${digest(text)}`, tokens: tokensOf(text.length) });
    }
    const total = tokensOf(text.length);
    const cacheable = prefixes.filter((p) => p.tokens >= minimum(model));
    const last = cacheable.at(-1);
    if (last === undefined) return { total, cacheWrite: 0, cacheRead: 0 };
    const hit = [...cacheable].reverse().find((p) => live(p.key));
    for (const p of cacheable) keep(p.key);
    const cacheRead = hit?.tokens ?? 0;
    return { total, cacheRead, cacheWrite: last.tokens - cacheRead };
  }

  /** `{ cached }` in tokens, and the request's total prompt tokens. */
  function openai(body) {
    const model = String(body.model ?? '');
    const text = JSON.stringify([body.tools ?? null, body.messages ?? []]);
    const total = tokensOf(text.length);
    if (total < OPENAI_MINIMUM) return { total, cached: 0 };
    const boundaries = [];
    for (let tokens = OPENAI_MINIMUM; tokens * CHARS_PER_TOKEN <= text.length; tokens += OPENAI_STEP) {
      boundaries.push({ tokens, key: `openai:${model}:${digest(text.slice(0, tokens * CHARS_PER_TOKEN))}` });
    }
    const hit = [...boundaries].reverse().find((b) => live(b.key));
    for (const b of boundaries) keep(b.key);
    return { total, cached: hit?.tokens ?? 0 };
  }

  /** The Responses API caches like Chat Completions: its instructions, tools and input as the prefix. */
  function responses(body) {
    return openai({
      model: body.model,
      tools: body.tools,
      messages: [body.instructions ?? null, body.input ?? []],
    });
  }

  return {
    anthropic,
    openai,
    'openai-responses': responses,
    clear() {
      entries.clear();
    },
  };
}
