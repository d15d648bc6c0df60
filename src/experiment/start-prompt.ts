/**
 * The experiment as a run sees it when it starts from another prompt than its files hold
 * (`run --from`, docs/design/run-records.md): the loop's prompt and each optimised part's text
 * are that prompt's, everything else is the experiment's own.
 */
import { optimisedNames, splitPromptText } from './part-texts.js';
import type { Experiment, StartSeed } from './types.js';

export function withStartPrompt(
  experiment: Experiment,
  prompt: string,
  seeds: readonly StartSeed[] = [],
): Experiment {
  const texts = splitPromptText(prompt, optimisedNames(experiment.shape));
  return {
    ...experiment,
    prompt,
    ...(seeds.length === 0 ? {} : { seeds }),
    shape: {
      ...experiment.shape,
      parts: experiment.shape.parts.map((part) =>
        part.optimise ? { ...part, text: texts[part.name] as string } : part,
      ),
    },
  };
}
