/**
 * The environment every git call runs with. Nothing the caller inherited (a hook's GIT_DIR
 * or GIT_INDEX_FILE, GIT_AUTHOR_*) may redirect a command at the user's index or checkout,
 * and git never waits for a person to answer. Pure.
 */

// Variables that only say where the user's own configuration lives: honoured.
const KEPT_GIT_VARIABLES = [
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
] as const;

/**
 * Every GIT_* name {@link cleanGitEnv} can return. simple-git strips or refuses any GIT_*
 * variable it is not told about, so this list is also its `allowEnvironment` option.
 */
export const ALLOWED_GIT_VARIABLES: readonly string[] = [
  ...KEPT_GIT_VARIABLES,
  'GIT_TERMINAL_PROMPT',
  'GIT_INDEX_FILE',
];

// Names simple-git refuses to pass on, because they can make git start a program (an
// editor, pager or askpass) or look for config elsewhere. Plumbing needs none of them.
const INTERACTIVE_VARIABLES = new Set(['EDITOR', 'VISUAL', 'PAGER', 'SSH_ASKPASS', 'PREFIX']);

const KEPT = new Set<string>(KEPT_GIT_VARIABLES);

function isDropped(key: string): boolean {
  const upper = key.toUpperCase();
  if (KEPT.has(upper)) return false;
  return upper.startsWith('GIT_') || INTERACTIVE_VARIABLES.has(upper);
}

/**
 * The given environment minus every other GIT_* variable, with English messages (openRepo
 * tells "not a repository" from real failures by them) and terminal prompts off (an
 * overnight run has nobody to answer). `indexFile` points git at a private index.
 */
export function cleanGitEnv(env: NodeJS.ProcessEnv, indexFile?: string): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || isDropped(key)) continue;
    clean[key] = value;
  }
  clean['LC_ALL'] = 'C';
  clean['GIT_TERMINAL_PROMPT'] = '0';
  if (indexFile !== undefined) clean['GIT_INDEX_FILE'] = indexFile;
  return clean;
}
