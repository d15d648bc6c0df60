/**
 * The first stage of an evaluation: generate every output and check each one as soon as it
 * is in, while the other calls still wait on the model — the checking phase then only waits
 * for the last outputs' checks. No check outlives the stage, whatever stopped it.
 */
import pLimit from 'p-limit';
import type { SampleChecks } from '../checks/check-result.js';
import { globalChecks } from '../checks/output-schema-gate.js';
import { type AgentEvidence, agentEvidenceOf } from '../checks/agent/agent-evidence.js';
import { runChecks } from '../checks/run-checks.js';
import type { Case, Experiment } from '../experiment/types.js';
import { clientOnAccount } from '../providers/client-on-account.js';
import type { EvaluateDeps, EvaluateInput, Generation } from './evaluate-types.js';
import { generateAgentOutputs } from './generate-agent.js';
import { generateOutputs, generationRequest } from './generate.js';
import { scrubSecrets } from './scrub-env.js';

export interface Generated {
  generations: Generation[];
  checks: SampleChecks[];
}

export async function generateAndCheck(
  input: EvaluateInput,
  deps: EvaluateDeps,
  hooks: {
    /** The ledger account the generator's calls go on. */
    account: string;
    /** Once the first output is in (or generation is over with one): the judge may warm up. */
    onFirstOutput: () => void;
  },
): Promise<Generated> {
  deps.onPhase?.('generating');
  const generator = clientOnAccount(deps.pool.client('generator'), hooks.account);
  // An agent case is a process with its own many calls: nothing of it goes through a batch.
  if (deps.batch !== undefined && input.experiment.agent === undefined) {
    const calls = input.cases.flatMap((testCase) =>
      Array.from({ length: input.samples }, (_, sample) => ({
        role: 'generator' as const,
        request: generationRequest(
          { ...input, shape: input.experiment.shape, client: generator },
          testCase,
          sample,
        ),
      })),
    );
    await deps.batch(calls, 'generating');
  }
  const checkOne = createChecker(input.experiment, input.cases, deps);
  const checking: Promise<SampleChecks>[] = [];
  try {
    const common = {
      prompt: input.prompt,
      cases: input.cases,
      samples: input.samples,
      sampleBase: input.sampleBase,
      ...(deps.signal ? { signal: deps.signal } : {}),
      onProgress: (done: number, total: number) => {
        // Not before the first output: starting a process blocks this thread for a moment,
        // which would delay the first requests.
        if (done > 0) hooks.onFirstOutput();
        deps.onPhase?.('generating', { done, total });
      },
      onGenerated: (generation: Generation, index: number) => {
        const checked = checkOne(generation);
        // Awaited below; until then a failure must not count as unhandled.
        checked.catch(() => undefined);
        checking[index] = checked;
        deps.onGenerated?.(generation);
      },
    };
    const generations =
      input.experiment.agent === undefined
        ? await generateOutputs({ ...common, shape: input.experiment.shape, client: generator })
        : await generateAgentOutputs({ ...common, experiment: input.experiment }, deps, hooks.account);
    if (generations.some((g) => g.ok)) hooks.onFirstOutput();
    deps.onPhase?.('checking');
    const checks = await Promise.all(checking);
    deps.onChecked?.(checks);
    return { generations, checks };
  } catch (error) {
    await Promise.allSettled(checking);
    throw error;
  }
}

/** Checks one output; at most `concurrency` outputs are checked at once (command checks are processes). */
function createChecker(
  experiment: Experiment,
  cases: readonly Case[],
  deps: EvaluateDeps,
): (generation: Generation) => Promise<SampleChecks> {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const limit = pLimit(Math.max(1, experiment.config.concurrency));
  const env = scrubSecrets(deps.env ?? process.env, experiment.models);
  const globals = globalChecks(experiment);
  return (g) =>
    limit(async (): Promise<SampleChecks> => {
      const testCase = byId.get(g.caseId) as Case;
      const outcomes = await runChecks({
        output: g.ok ? g.text : null,
        ...(g.agent === undefined ? {} : { agent: evidenceOf(g.agent, testCase, experiment) }),
        ...(g.toolCalls === undefined ? {} : { toolCalls: g.toolCalls }),
        ...(g.error === undefined ? {} : { generationError: g.error }),
        vars: testCase.vars,
        checks: [...globals, ...testCase.checks],
        baseDir: experiment.dir,
        env,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
      return { caseId: g.caseId, sample: g.sample, outcomes };
    });
}

/** What the checks read of an agent case besides its text: its record, calls and workspace. */
function evidenceOf(
  agent: NonNullable<Generation['agent']>,
  testCase: Case,
  experiment: Experiment,
): AgentEvidence {
  return agentEvidenceOf({
    record: agent.record,
    toolCalls: agent.toolCalls,
    texts: agent.folder.texts,
    fixtures: [experiment.agent?.fixtures, testCase.fixtures].filter((dir) => dir !== undefined),
    ...(experiment.agent?.place === 'skill' && experiment.agent.name !== undefined
      ? { skill: experiment.agent.name }
      : {}),
  });
}
