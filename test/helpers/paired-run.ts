/**
 * A real run under paired acceptance (docs/design/paired-acceptance.md) for review tests (show,
 * watch, report), played by the scripted loop harness: a screened-out proposal, a keep every case
 * shows, and an inconclusive change that helps one case and hurts another (churn). The generator
 * loses "charlie" for Ada and "bravo" for Cy, so a prompt's words score differently per case.
 *
 *   const run = await runPairedScenario();   // statuses: baseline, screened_out, keep, inconclusive
 *   ... afterAll(cleanUpScriptedRuns)
 */
import { promptWith, runScripted, type ScriptedRun } from './loop-harness.js';
import { lastUserMessage, mutatorScript, type ScriptedHandler } from './scripted-provider.js';

const losesWordsPerCase: ScriptedHandler = ({ request }) => {
  const text = lastUserMessage(request);
  if (text.includes('Ada')) return text.replace('charlie', '');
  if (text.includes('Cy ')) return text.replace('bravo', '');
  return text;
};

/** `iterations`: fewer stop the scenario early (1: only the screened-out proposal, the best stays the baseline). */
export function runPairedScenario(iterations = 3): Promise<ScriptedRun> {
  const mutator = mutatorScript([
    { hypothesis: 'Swap alpha for zulu.', prompt: promptWith(['zulu']) },
    { hypothesis: 'Add charlie and delta.', prompt: promptWith(['alpha', 'charlie', 'delta']) },
    { hypothesis: 'Trade charlie for bravo.', prompt: promptWith(['alpha', 'bravo', 'delta']) },
  ]);
  return runScripted({
    mutator,
    generator: losesWordsPerCase,
    search: { acceptance: 'paired', min_effect: 0.01, confidence: 0.9, retest: 1, minibatch: 2 },
    budget: { iterations },
  });
}
