import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A git runner for tests' own commits, as `writer` (author and committer, writer@test.local),
 * with none of the machine's git config: `git(cwd, ...args)` resolves with trimmed stdout.
 */
export function gitAs(writer: string): (cwd: string, ...args: string[]) => Promise<string> {
  return async (cwd, ...args) => {
    const { stdout } = await run('git', args, {
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: cwd,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_AUTHOR_NAME: writer,
        GIT_AUTHOR_EMAIL: 'writer@test.local',
        GIT_COMMITTER_NAME: writer,
        GIT_COMMITTER_EMAIL: 'writer@test.local',
      },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout.trim();
  };
}
