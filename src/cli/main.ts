#!/usr/bin/env node
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { handleFatal } from './handle-fatal.js';
import { EXIT } from '../errors.js';
import { flushProcessOutput } from '../ui/terminal.js';

// A reader that went away (`… | head -1`) is no failure of the command: what it would have read has
// nowhere to go, and the work goes on (a run keeps its record either way).
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });

const program = buildProgram();
program.configureOutput({ outputError: (text, write) => write(text) });
try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    const benign =
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help';
    process.exitCode = benign ? EXIT.ok : EXIT.usage;
  } else {
    process.exitCode = handleFatal(error);
  }
}
// Every command awaits its own work, so it is done here. Without an explicit exit a process that
// made HTTP calls lingers until idle sockets time out, a wait each judge and grader subprocess
// would add to every evaluation.
await flushProcessOutput();
process.exit();
