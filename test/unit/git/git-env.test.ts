import { describe, expect, it } from 'vitest';
import { ALLOWED_GIT_VARIABLES, cleanGitEnv } from '../../../src/git/git-env.js';

describe('cleanGitEnv', () => {
  it('drops inherited GIT_* variables but keeps where the user config lives', () => {
    const env = cleanGitEnv({
      PATH: '/bin',
      HOME: '/home/u',
      GIT_DIR: '/elsewhere',
      GIT_INDEX_FILE: '/elsewhere/index',
      GIT_AUTHOR_NAME: 'Intruder',
      git_work_tree: '/x',
      GIT_CONFIG_GLOBAL: '/home/u/.config/git/work',
      GIT_CONFIG_NOSYSTEM: '1',
      UNSET: undefined,
    });
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      GIT_CONFIG_GLOBAL: '/home/u/.config/git/work',
      GIT_CONFIG_NOSYSTEM: '1',
      LC_ALL: 'C',
      GIT_TERMINAL_PROMPT: '0',
    });
  });

  it('points git at a private index only when asked', () => {
    expect(cleanGitEnv({ GIT_INDEX_FILE: '/user/index' }, '/tmp/x/index')['GIT_INDEX_FILE']).toBe(
      '/tmp/x/index',
    );
  });
});

describe('cleanGitEnv and simple-git', () => {
  it('drops the program variables simple-git refuses to pass on', () => {
    const env = cleanGitEnv({
      PATH: '/bin',
      EDITOR: 'vim',
      Visual: 'code',
      PAGER: 'less',
      SSH_ASKPASS: '/x',
    });
    expect(env).toEqual({ PATH: '/bin', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' });
  });

  it('allows every GIT_* variable it can return', () => {
    const env = cleanGitEnv(
      {
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/g',
        GIT_CONFIG_SYSTEM: '/s',
        GIT_CEILING_DIRECTORIES: '/c',
        GIT_DISCOVERY_ACROSS_FILESYSTEM: '1',
      },
      '/tmp/index',
    );
    const gitKeys = Object.keys(env).filter((key) => key.startsWith('GIT_'));
    expect(gitKeys).toHaveLength(7);
    expect([...ALLOWED_GIT_VARIABLES].sort()).toEqual(gitKeys.sort());
  });
});
