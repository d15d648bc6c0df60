/**
 * The built-in grader's call for one case, built by the runner for a batch
 * (docs/design/cost-engine.md): the sandbox files planned as the grader gets them, read back as
 * `autoresearch grade` reads them (outputs and inputs in name order, the transcript, the
 * expectations), the request through the proxy's wire — so its cache key is the one the sandboxed
 * grader's call will look up. A grader program is not a model here: it is never batched.
 */
import { roleModels } from '../experiment/judge-panel.js';
import type { Experiment } from '../experiment/types.js';
import { asProxied } from '../sandbox/proxied-request.js';
import { INPUTS_DIR, isInOutputFolder, OUTPUTS_DIR } from '../protocol/review-files.js';
import { proxiedSettings, settingsToEntry } from '../protocol/model-settings.js';
import type { BatchCall } from '../providers/batch/batch-runner.js';
import { builtinGraderRequest } from './builtin-grader.js';
import { EXPECTATIONS_FILE, type GraderCase, planGraderFiles, TRANSCRIPT_FILE } from './grader-layout.js';
import { parseExpectations } from './read-expectations.js';

export function graderBatchCalls(experiment: Experiment, cases: readonly GraderCase[]): BatchCall[] {
  const [grader] = roleModels(experiment.models, ['grader']);
  if (grader === undefined) return [];
  const settings = proxiedSettings(grader.entry, { timeoutMs: 1000, endpointLimit: 1 });
  const entry = settingsToEntry(settings);
  return cases.flatMap((graderCase): BatchCall[] => {
    if (graderCase.outputs.length === 0 || graderCase.expectations.length === 0) return [];
    const files = planGraderFiles(graderCase);
    const under = (dir: string) =>
      files
        .filter((f) => f.path.startsWith(`${dir}/`))
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
        .map((f) => ({ file: f.path, text: f.text }));
    const textOf = (path: string) => files.find((f) => f.path === path)?.text ?? '';
    const inputs = under(INPUTS_DIR);
    const outputs = under(OUTPUTS_DIR);
    const request = builtinGraderRequest({
      expectations: parseExpectations(textOf(EXPECTATIONS_FILE)),
      transcript: textOf(TRANSCRIPT_FILE),
      outputs,
      ...(inputs.length === 0 ? {} : { inputs }),
      ...(outputs.some((o) => isInOutputFolder(o.file)) ? { agent: true } : {}),
    });
    // The proxy numbers a request without a sample hint: the first of its kind is sample 0.
    return [{ role: 'grader', request: { ...asProxied(settings.provider, entry, request), sampleIndex: 0 } }];
  });
}
