/**
 * The built-in judge and grader as the runner starts them, once per evaluation (the judge) and
 * once per graded case (the grader):
 *   node dist/cli/builtin-main.js judge outputs --rubric rubric.md
 *   node dist/cli/builtin-main.js grade . --expectations expectations.md
 * model settings on stdin. The same programs as `autoresearch judge` and `autoresearch grade`
 * (the same command modules), without the command tree: loading commander and the CLI's
 * program is ~15 ms of every such process's start (BENCHMARKS.md, benchmark 2). Takes exactly
 * the arguments the runner passes; people use the `autoresearch` commands.
 */
import { EXIT } from '../errors.js';
import { flushProcessOutput } from '../ui/terminal.js';
import { handleFatal } from './handle-fatal.js';
import { configureZodFor } from './zod-mode.js';

type Builtin = { flag: string; run(target: string, file: string): Promise<number> };

const BUILTINS: Record<string, Builtin> = {
  judge: {
    flag: '--rubric',
    run: async (outputsDir, rubric) => (await import('./commands/judge.js')).default(outputsDir, { rubric }),
  },
  grade: {
    flag: '--expectations',
    run: async (caseDir, expectations) =>
      (await import('./commands/grade.js')).default(caseDir, { expectations }),
  },
};

const [name = '', target, flag, file, ...rest] = process.argv.slice(2);
const builtin = Object.hasOwn(BUILTINS, name) ? BUILTINS[name] : undefined;
if (
  builtin === undefined ||
  target === undefined ||
  flag !== builtin.flag ||
  file === undefined ||
  rest.length > 0
) {
  process.stderr.write(
    'usage: builtin-main.js judge <outputs-dir> --rubric <file>\n' +
      '       builtin-main.js grade <case-dir> --expectations <file>\n' +
      'This is the runner’s entry for its built-in judge and grader; run `autoresearch judge` or\n' +
      '`autoresearch grade` yourself.\n',
  );
  process.exitCode = EXIT.usage;
} else {
  try {
    configureZodFor(name);
    process.exitCode = await builtin.run(target, file);
  } catch (error) {
    process.exitCode = handleFatal(error);
  }
}
// As in main.ts: every piece of work is awaited, and an explicit exit does not wait for idle
// sockets.
await flushProcessOutput();
process.exit();
