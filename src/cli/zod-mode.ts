/**
 * zod compiles a fast parser for each object schema on its first use. That pays off in a run or
 * a watch that parses thousands of events; in a command that parses a few dozen records and
 * exits it costs more than it saves (reading a small journal: ~28 ms compiled, ~13 ms
 * interpreted here). zod decides when a schema is built, so this is set before a command's
 * modules load, through the global zod reads its configuration from (no zod import here, so
 * `--help` still loads none).
 */
const LONG_RUNNING: ReadonlySet<string> = new Set(['run', 'resume', 'watch']);

export function configureZodFor(command: string): void {
  const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  holder.__zod_globalConfig ??= {};
  holder.__zod_globalConfig.jitless = !LONG_RUNNING.has(command);
}
