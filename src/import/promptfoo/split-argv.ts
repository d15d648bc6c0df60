/**
 * Turns promptfoo's `exec:` command line into an argv list without a shell
 * (docs/design/experiment-format.md: the `command` provider never goes through one). Quotes and
 * backslashes are honoured the way a POSIX shell reads them; anything that only a shell could do —
 * pipes, redirections, variables, globs, `&&`, leading `NAME=value` — is refused with the reason.
 */

export type SplitResult = { ok: true; argv: string[] } | { ok: false; reason: string };

const SHELL_ONLY = new Set(['|', '&', ';', '<', '>', '(', ')', '$', '`', '*', '?']);
/** Special only at the start of a word: home-folder expansion and comments. */
const SHELL_ONLY_AT_START = new Set(['~', '#']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function splitArgv(commandLine: string): SplitResult {
  const argv: string[] = [];
  let current = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < commandLine.length; i++) {
    const char = commandLine[i] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else current += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (
        char === '\\' &&
        i + 1 < commandLine.length &&
        '"\\$`'.includes(commandLine[i + 1] as string)
      ) {
        current += commandLine[++i];
      } else if (char === '$' || char === '`') {
        return {
          ok: false,
          reason: `it expands ${char === '$' ? 'a variable' : 'a command'} inside double quotes, which needs a shell`,
        };
      } else current += char;
      continue;
    }
    if (/\s/.test(char)) {
      if (inWord) argv.push(current);
      current = '';
      inWord = false;
      continue;
    }
    const atStart = !inWord;
    inWord = true;
    if (char === "'" || char === '"') quote = char;
    else if (char === '\\') {
      if (i + 1 < commandLine.length) current += commandLine[++i];
    } else if (SHELL_ONLY.has(char) || (atStart && SHELL_ONLY_AT_START.has(char))) {
      return { ok: false, reason: `\`${char}\` needs a shell, and autoresearch runs programs without one` };
    } else current += char;
  }
  if (quote !== undefined) return { ok: false, reason: `it has an unterminated ${quote} quote` };
  if (inWord) argv.push(current);
  if (argv.length === 0) return { ok: false, reason: 'the command is empty' };
  if (ASSIGNMENT.test(argv[0] as string)) {
    return { ok: false, reason: 'it sets environment variables before the program, which needs a shell' };
  }
  return { ok: true, argv };
}
