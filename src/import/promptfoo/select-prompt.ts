/** Picks the prompt to import (--prompt-index, 0-based), refusing with the numbered list when it cannot. */
import { AutoresearchError } from '../../errors.js';
import type { PromptChoice } from './load-prompts.js';

export function listPromptChoices(choices: readonly PromptChoice[]): string {
  return choices
    .map(
      (c, i) => `  ${i}  ${c.label}  (${c.source})${c.problem ? ` — cannot be imported: ${c.problem}` : ''}`,
    )
    .join('\n');
}

export function selectPrompt(
  choices: readonly PromptChoice[],
  index: number | undefined,
): { choice: PromptChoice; index: number } {
  if (choices.length === 0) {
    throw new AutoresearchError('E_CONFIG', 'the promptfoo config declares no prompts', {
      hint: 'add a `prompts:` list; autoresearch optimises one of them',
    });
  }
  const chosen = index ?? 0;
  const count = `${choices.length} prompt${choices.length === 1 ? '' : 's'}`;
  const choice = choices[chosen];
  if (choice === undefined) {
    throw new AutoresearchError(
      'E_USAGE',
      `--prompt-index ${chosen} is out of range: the config has ${count}:\n${listPromptChoices(choices)}`,
      {
        hint: `pass --prompt-index with a number from 0 to ${choices.length - 1}`,
      },
    );
  }
  if (choice.problem !== undefined || choice.text === undefined) {
    const others = choices.length > 1 ? ` The config has ${count}:\n${listPromptChoices(choices)}` : '';
    throw new AutoresearchError(
      'E_USAGE',
      `prompt ${chosen} (${choice.label}) cannot be imported: ${choice.problem ?? 'it has no text'}.${others}`,
      {
        hint:
          choices.length > 1
            ? 'choose another one with --prompt-index N'
            : 'give the prompt as text or a text/chat file',
      },
    );
  }
  if (choice.text.trim() === '') {
    throw new AutoresearchError('E_USAGE', `prompt ${chosen} (${choice.label}) is empty`, {
      hint: 'choose another one with --prompt-index N',
    });
  }
  return { choice, index: chosen };
}
