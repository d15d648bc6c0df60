/**
 * Generate: render the request for every case (render-request.ts) and ask the generator for `samples` outputs
 * each. The endpoint limiter in the model pool bounds concurrency, so every call is queued
 * at once. A call that still fails after retries becomes a failed generation (scored as
 * docs/design/checks.md says); only failures that must stop the run (auth, credit, abort) are
 * thrown.
 */
import type { Case, PromptShape } from '../experiment/types.js';
import { type CompletionRequest, type ModelClient, ProviderError } from '../providers/types.js';
import { renderRequest } from '../experiment/render-request.js';
import type { Generation } from './evaluate-types.js';

export interface GenerateInput {
  /** The optimised part's text under evaluation; the shape holds the other parts. */
  prompt: string;
  shape: PromptShape;
  cases: readonly Case[];
  samples: number;
  /** Sample indices start here: fresh samples for noise repeats, confirmations and the final evaluation. */
  sampleBase: number;
  client: ModelClient;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /**
   * Each generation as it finishes (`index` is its place in the result), so its checks and its
   * file can start while the other calls are still waiting on the model.
   */
  onGenerated?: (generation: Generation, index: number) => void;
}

export async function generateOutputs(input: GenerateInput): Promise<Generation[]> {
  const { client } = input;
  const total = input.cases.length * input.samples;
  let done = 0;
  const jobs = input.cases.flatMap((testCase, caseIndex) =>
    Array.from({ length: input.samples }, async (_, sample): Promise<Generation> => {
      const generation = await generateOne(testCase, sample, generationRequest(input, testCase, sample));
      input.onGenerated?.(generation, caseIndex * input.samples + sample);
      return generation;
    }),
  );
  return settleAll(jobs);

  async function generateOne(
    testCase: Case,
    sample: number,
    request: CompletionRequest,
  ): Promise<Generation> {
    try {
      const result = await client.complete({ ...request, ...(input.signal ? { signal: input.signal } : {}) });
      return {
        caseId: testCase.id,
        sample,
        ok: true,
        text: result.text,
        ...(result.toolCalls && result.toolCalls.length > 0 ? { toolCalls: result.toolCalls } : {}),
        ...(result.stopReason === undefined ? {} : { stopReason: result.stopReason }),
        cached: result.cached === true,
      };
    } catch (error) {
      if (error instanceof ProviderError && (error.stopsRun || error.kind === 'aborted')) throw error;
      const message = error instanceof Error ? error.message : String(error);
      return { caseId: testCase.id, sample, ok: false, text: '', error: message, cached: false };
    } finally {
      done += 1;
      input.onProgress?.(done, total);
    }
  }
}

/**
 * The generator's request for one (case, sample): also what a batch submits in its place
 * (docs/design/cost-engine.md), so the batch's answer is found under the very key this call looks
 * up.
 */
export function generationRequest(
  input: Pick<GenerateInput, 'prompt' | 'shape' | 'sampleBase'> & { client: Pick<ModelClient, 'entry'> },
  testCase: Case,
  sample: number,
): CompletionRequest {
  const { entry } = input.client;
  const rendered = renderRequest({
    shape: input.shape,
    prompt: input.prompt,
    testCase,
    ...(entry.system === undefined ? {} : { system: entry.system }),
  });
  return {
    ...rendered,
    ...(entry.temperature === undefined ? {} : { temperature: entry.temperature }),
    ...(entry.max_tokens === undefined ? {} : { maxTokens: entry.max_tokens }),
    ...(entry.params === undefined ? {} : { params: entry.params }),
    sampleIndex: input.sampleBase + sample,
  };
}

/** Like Promise.all, but waits for every job before rethrowing, so no call outlives the stage. */
export async function settleAll<T>(jobs: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(jobs);
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}
