/**
 * Ctrl-C for the one-step commands (`eval`, `calibrate`): the first SIGINT/SIGTERM aborts the
 * work (its calls stop and it is journaled as interrupted), and if that has not finished
 * within the grace period the process exits 130 anyway; a second signal exits at once.
 */
import { AutoresearchError, EXIT } from '../errors.js';
import type { Terminal } from '../ui/terminal.js';

/** How long the first Ctrl-C waits for the work to be journaled before exiting anyway. */
const INTERRUPT_GRACE_MS = 4_500;

/** `what`: the work being stopped, e.g. "the evaluation". Returns the function that removes the traps. */
export function trapInterrupts(term: Terminal, controller: AbortController, what: string): () => void {
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts += 1;
    if (interrupts > 1) {
      term.err('second interrupt: exiting now');
      process.exit(EXIT.interrupted);
    }
    term.err(`${signal}: stopping ${what} (Ctrl-C again to exit at once)`);
    controller.abort(new AutoresearchError('E_INTERRUPTED', 'interrupted'));
    setTimeout(() => process.exit(EXIT.interrupted), INTERRUPT_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
