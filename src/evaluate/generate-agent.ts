/**
 * Generate for an agent experiment (docs/design/agent-runs.md): every (case, sample) is an agent
 * case in its own workspace, at most `concurrency` at once. A case that ends badly (an error, a
 * timeout, max turns) is still an output — what it left is scored; a case the runner could not
 * even start is a failed generation. Only the run stopping throws.
 */
import pLimit from 'p-limit';
import { agentKindOf } from '../agent/agent-target.js';
import { runAgentCase } from '../agent/agent-case.js';
import type { Experiment } from '../experiment/types.js';
import { workspaceChecksFor } from '../checks/agent/workspace-commands.js';
import { globalChecks } from '../checks/output-schema-gate.js';
import { checkName } from '../checks/registry.js';
import { runIsolation } from '../sandbox/run-isolation.js';
import { resolveLimits } from '../sandbox/sandbox-limits.js';
import { tempRoot } from '../temp-root.js';
import type { EvaluateDeps, Generation } from './evaluate-types.js';
import { type GenerateInput, settleAll } from './generate.js';

export async function generateAgentOutputs(
  input: Omit<GenerateInput, 'client' | 'shape'> & { experiment: Experiment },
  deps: Pick<EvaluateDeps, 'agent' | 'agentRecordDir' | 'agentCacheDir' | 'env' | 'signal' | 'pool'>,
  /** The ledger account the agents' model calls go on. */
  account: string,
): Promise<Generation[]> {
  const { experiment } = input;
  const target = experiment.agent;
  const generator = experiment.models.generator;
  const agent = agentKindOf(generator.provider);
  if (target === undefined || agent === undefined || deps.agent === undefined)
    throw new Error(`generateAgentOutputs: ${experiment.name} has no agent to run its cases`);
  const run = deps.agent;
  const recordDir =
    deps.agentRecordDir ??
    (() => {
      throw new Error('generateAgentOutputs: no record folder for agent cases');
    });
  const tmpRoot = await tempRoot();
  const isolation = runIsolation(experiment);
  const limits = resolveLimits(experiment.config.judging.limits);
  const env = deps.env ?? process.env;
  const globals = globalChecks(experiment);
  const limit = pLimit(Math.max(1, experiment.config.concurrency));
  const total = input.cases.length * input.samples;
  let done = 0;
  const jobs = input.cases.flatMap((testCase, caseIndex) =>
    Array.from({ length: input.samples }, (_, sample) =>
      limit(async (): Promise<Generation> => {
        deps.signal?.throwIfAborted();
        let generation: Generation;
        // Run in the workspace the agent leaves, before it is removed (docs/design/checks.md).
        const workspaceChecks = workspaceChecksFor([...globals, ...testCase.checks], checkName, {
          isolation,
          limits,
          env,
          experimentDir: experiment.dir,
          tmpRoot,
          vars: testCase.vars,
          ...(deps.signal === undefined ? {} : { signal: deps.signal }),
        });
        try {
          const outcome = await runAgentCase(
            {
              agent,
              ...(generator.binary === undefined ? {} : { binary: generator.binary }),
              ...(generator.model === undefined ? {} : { model: generator.model }),
              target,
              prompt: input.prompt,
              testCase,
              sample,
              sampleIndex: input.sampleBase + sample,
              recordDir: recordDir(testCase.id, sample),
              tmpRoot,
              ...(workspaceChecks === undefined ? {} : { workspaceChecks }),
            },
            {
              run,
              env,
              isolation,
              limits,
              ...(deps.agentCacheDir === undefined ? {} : { cacheDir: deps.agentCacheDir }),
              // Each of the agent's model calls on the generator's bill, like a generation's.
              onModelCall: (call) =>
                deps.pool.ledger.record({
                  role: 'generator',
                  provider: generator.provider,
                  model: call.model,
                  ok: call.ok,
                  inputTokens: call.inputTokens,
                  outputTokens: call.outputTokens,
                  ...(call.cacheReadTokens === undefined ? {} : { cacheReadTokens: call.cacheReadTokens }),
                  ...(call.cacheWriteTokens === undefined ? {} : { cacheWriteTokens: call.cacheWriteTokens }),
                  costUsd: call.costUsd,
                  cached: call.cached,
                  attempts: call.attempts,
                  latencyMs: call.latencyMs,
                  simulated: generator.provider === 'sim',
                  account,
                }),
              // The agents' calls hold budget.usd like the run's own (model-pool.ts).
              holdSpend: (worstUsd) => deps.pool.holdSpend(worstUsd),
              ...(deps.signal === undefined ? {} : { signal: deps.signal }),
            },
          );
          const { record } = outcome;
          generation = {
            caseId: testCase.id,
            sample,
            ok: true,
            text: outcome.text,
            // Finished before the run was stopped, and taken from its record (agent-case.ts).
            cached: outcome.reused === true,
            agent: {
              endReason: record.endReason,
              turns: record.turns,
              files: record.files.filter((f) => f.status !== 'deleted').length,
              folder: outcome.folder,
              transcript: outcome.transcript,
              record,
              toolCalls: outcome.toolCalls,
            },
          };
        } catch (error) {
          if (deps.signal?.aborted) throw error;
          const message = error instanceof Error ? error.message : String(error);
          generation = { caseId: testCase.id, sample, ok: false, text: '', error: message, cached: false };
        }
        done += 1;
        input.onProgress?.(done, total);
        input.onGenerated?.(generation, caseIndex * input.samples + sample);
        return generation;
      }),
    ),
  );
  return settleAll(jobs);
}
