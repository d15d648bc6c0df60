/**
 * The product's judge: the built-in `autoresearch judge` or the user's `judge.command`, run in
 * a fresh sandbox behind the model proxy (run-judge.ts). Opening a session starts the built-in
 * program at once, so its start-up overlaps the rest of the generation; the first attempt
 * then uses it.
 */
import type { ReviewCallOptions } from '../protocol/review-call.js';
import { type SandboxedPartOptions, sandboxOptions } from '../sandbox/sandboxed-part.js';
import type { Judge, JudgeSession } from './judge.js';
import { runJudge, startJudgeEarly } from './run-judge.js';
import type { StartedProgram } from '../sandbox/run-sandboxed-program.js';

export function createSandboxedJudge(options: SandboxedPartOptions): Judge {
  return { open: (call) => openSession(options, call) };
}

function openSession(options: SandboxedPartOptions, call: ReviewCallOptions): JudgeSession {
  const run = sandboxOptions(options, call);
  // Its own failure to start is not fatal: the first attempt then starts it the ordinary way.
  const started: Promise<StartedProgram | undefined> = startJudgeEarly({
    judge: options.entry,
    ...run,
  }).catch(() => undefined);
  return {
    async judge(request) {
      const warm = await started;
      return runJudge({
        judge: options.entry,
        ...run,
        ...request,
        ...(warm === undefined ? {} : { started: warm }),
      });
    },
    async close() {
      await (await started)?.cancel();
    },
  };
}
