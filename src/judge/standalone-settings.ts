/**
 * Where `autoresearch judge` / `grade` get their model: `--model provider:model` when given,
 * else JSON on stdin (how the runner starts them), else the first API key found in the
 * environment with a default model.
 */
import { AutoresearchError } from '../errors.js';
import { describeMissingKey, missingKeyOf } from '../experiment/missing-keys.js';
import {
  type ModelSettings,
  parseModelFlag,
  parseSettingsJson,
  settingsToEntry,
} from '../protocol/model-settings.js';

export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5';
export const DEFAULT_OPENAI_MODEL = 'gpt-4o';

export interface StandaloneInput {
  /** What came on stdin when it is not a TTY and no --model was given ('' when nothing did). */
  stdinText: string;
  modelFlag: string | undefined;
  env: NodeJS.ProcessEnv;
  /** `judge` or `grade`, for messages. */
  command: string;
}

function usage(message: string, hint: string): AutoresearchError {
  return new AutoresearchError('E_USAGE', message, { hint });
}

export function resolveStandaloneSettings(input: StandaloneInput): ModelSettings {
  const example = `autoresearch ${input.command} … --model anthropic:${DEFAULT_ANTHROPIC_MODEL}`;
  let settings: ModelSettings;
  if (input.modelFlag !== undefined) {
    const parsed = parseModelFlag(input.modelFlag);
    if (!parsed.ok) throw usage(parsed.message, `e.g. ${example}, or --model sim to try it offline`);
    settings = parsed.settings;
  } else if (input.stdinText.trim() !== '') {
    const parsed = parseSettingsJson(input.stdinText);
    if (!parsed.ok) throw usage(parsed.message, 'send {"provider": "...", "model": "..."} or use --model');
    settings = parsed.settings;
  } else if (input.env['ANTHROPIC_API_KEY']) {
    settings = { provider: 'anthropic', model: DEFAULT_ANTHROPIC_MODEL };
  } else if (input.env['OPENAI_API_KEY']) {
    settings = { provider: 'openai', model: DEFAULT_OPENAI_MODEL };
  } else {
    throw usage(
      `no model for \`autoresearch ${input.command}\``,
      `pass --model provider:model (e.g. ${example}), or --model sim to try it offline`,
    );
  }
  const entry = settingsToEntry(settings);
  const name = missingKeyOf(entry, input.env);
  if (name !== undefined) {
    throw new AutoresearchError(
      'E_MISSING_KEY',
      describeMissingKey(name, [`autoresearch ${input.command}`]),
      {
        hint: `export ${name}=… (keys are read from the environment only), or use --model sim offline`,
      },
    );
  }
  return settings;
}
