/**
 * The run boundary: turns any error into a message and an exit code. Known errors print
 * their message and hint, and so does a full disk; anything else is a bug, with the stack only
 * under DEBUG=1.
 */
import { EXIT, ValidationError, isAutoresearchError, type ExitCode } from '../errors.js';
import { noSpaceError } from '../no-space.js';
import { formatProblems } from '../ui/format-problems.js';
import { terminal } from '../ui/terminal.js';

export function handleFatal(thrown: unknown): ExitCode {
  const term = terminal();
  // A full disk surfaces as a system error from wherever the write was; it is not a bug.
  const error = noSpaceError(thrown) ?? thrown;
  const c = term.colors;
  if (error instanceof ValidationError) {
    term.err(formatProblems(error.problems, c));
    term.err(c.red(`${error.message}; nothing was written.`));
    return error.exitCode;
  }
  if (isAutoresearchError(error)) {
    term.err(`${c.red('error')}: ${error.message}`);
    if (error.hint) term.err(c.dim(`hint: ${error.hint}`));
    if (process.env['DEBUG'] === '1' && error.stack) term.err(c.dim(error.stack));
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  term.err(`${c.red('internal error')}: ${message}`);
  term.err('This is a bug in autoresearch. Please report it with the command you ran.');
  if (process.env['DEBUG'] === '1' && error instanceof Error && error.stack) term.err(c.dim(error.stack));
  else term.err(c.dim('Run again with DEBUG=1 to see the stack.'));
  return EXIT.failure;
}
