import { describe, expect, it } from 'vitest';
import { joinPartTexts } from '../../../src/experiment/part-texts.js';
import { withStartPrompt } from '../../../src/experiment/start-prompt.js';
import type { Experiment, PromptPart } from '../../../src/experiment/types.js';

function experimentOf(parts: PromptPart[]): Experiment {
  const optimised = parts.filter((p) => p.optimise);
  return {
    name: 'demo',
    prompt: joinPartTexts(Object.fromEntries(optimised.map((p) => [p.name, p.text]))),
    promptPath: optimised[0]?.path as string,
    shape: { parts },
  } as Experiment;
}

describe('withStartPrompt', () => {
  it('replaces the one optimised part', () => {
    const experiment = experimentOf([
      { name: 'prompt', role: 'user', text: 'old', path: '/p/prompt.md', optimise: true },
    ]);
    const started = withStartPrompt(experiment, 'new');
    expect(started.prompt).toBe('new');
    expect(started.shape.parts[0]?.text).toBe('new');
    // The experiment as loaded is left as it was (the manifest fingerprints it).
    expect(experiment.prompt).toBe('old');
  });

  it('splits a parts document into each optimised part and keeps the fixed ones', () => {
    const experiment = experimentOf([
      { name: 'system', role: 'system', text: 'be brief', path: '/p/system.md', optimise: true },
      { name: 'messages[0]', role: 'user', text: 'fixed {{q}}', optimise: false },
      { name: 'messages[1]', role: 'user', text: 'ask', path: '/p/ask.md', optimise: true },
    ]);
    const start = joinPartTexts({ system: 'be kind', 'messages[1]': 'ask {{q}} twice' });
    const started = withStartPrompt(experiment, start);
    expect(started.prompt).toBe(start);
    expect(started.shape.parts.map((p) => p.text)).toEqual(['be kind', 'fixed {{q}}', 'ask {{q}} twice']);
  });
});
