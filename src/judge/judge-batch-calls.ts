/**
 * The built-in judge's calls of one evaluation, built by the runner for a batch
 * (docs/design/cost-engine.md): for each model member of the judge (a panel's members one by one),
 * each output and each of its samples, the request exactly as the runner's proxy will receive it
 * from the sandboxed judge — the judge's request, through the adapter the judge speaks to the proxy
 * with the settings the runner gives it, read back by the proxy — so its cache key is the one the
 * judge's call will look up. Program and CLI judges are not models here: they are never batched.
 */
import { roleModels } from '../experiment/judge-panel.js';
import type { Experiment } from '../experiment/types.js';
import type { BatchCall } from '../providers/batch/batch-runner.js';
import { builtinJudgeRequest } from './builtin-judge.js';
import { proxiedSettings, settingsToEntry } from '../protocol/model-settings.js';
import type { OutputFolder } from '../protocol/output-folder.js';
import { asProxied } from '../sandbox/proxied-request.js';

/** Neither the timeout nor the concurrency a judge is given changes a request's bytes. */
const ANY = { timeoutMs: 1000, endpointLimit: 1 };

export function judgeBatchCalls(
  experiment: Experiment,
  outputs: readonly { text: string; input?: string; folder?: OutputFolder }[],
): BatchCall[] {
  const rubric = experiment.rubric;
  if (rubric === undefined) return [];
  const criteria = rubric.criteria.map((c) => c.key);
  const checklists = Object.fromEntries(rubric.criteria.flatMap((c) => (c.items ? [[c.key, c.items]] : [])));
  return roleModels(experiment.models, ['judge']).flatMap(({ member, entry }) => {
    const samples = entry.samples ?? 1;
    const settings = proxiedSettings(entry, { ...ANY, samples });
    return outputs.flatMap((output) =>
      Array.from({ length: samples }, (_, sample): BatchCall => {
        const asked = builtinJudgeRequest({ rubricText: rubric.text, criteria, checklists }, output, sample);
        return {
          role: 'judge',
          ...(member === undefined ? {} : { member }),
          request: { ...asProxied(settings.provider, settingsToEntry(settings), asked), sampleIndex: sample },
        };
      }),
    );
  });
}
