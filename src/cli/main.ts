#!/usr/bin/env node
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { handleFatal } from './handle-fatal.js';
import { EXIT } from '../errors.js';

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
