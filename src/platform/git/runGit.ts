import { buildCleanEnv } from './buildCleanEnv.js';
import { redactCredentials } from './redactCredentials.js';
import { runBoundedProcess } from './runBoundedProcess.js';

/** Where git's command lines and stderr go (an agent job's capped log, a source's fetch log). */
export interface GitLog {
  write(chunk: string | Buffer): void;
}

/** The author and committer of every commit Enclave makes (agent branches; source fetches commit nothing). */
export const AGENT_AUTHOR = { name: 'Enclave Agent', email: 'agent@enclave.local' };

/** Where and how git runs for one agent run. */
export interface GitContext {
  cwd: string;
  /** Scratch HOME: no ~/.gitconfig, no credentials of the server's user. */
  home: string;
  timeoutMs: number;
  log: GitLog;
  signal?: AbortSignal;
  /** Extra settings pinned like SAFE_CONFIG (through GIT_CONFIG_KEY_n, so keys may hold any character). */
  pins?: ReadonlyArray<readonly [string, string]>;
  /** Replaces the default `ssh -o BatchMode=yes` (a source's own key and known_hosts). */
  sshCommand?: string;
}

/** A git command that failed; the message is for the log, not for clients. */
export class GitCommandError extends Error {
  constructor(
    readonly command: string,
    readonly reason: string,
  ) {
    super(`git ${command}: ${reason}`);
    this.name = 'GitCommandError';
  }
}

/** Kept from git's stdout: enough for rev-parse and symbolic-ref answers. */
const STDOUT_CAP = 64 * 1024;
/** Kept from git's stderr for the job log. */
const STDERR_CAP = 16 * 1024;

/**
 * Settings on every git call; the command line outranks every config file. The appliance
 * commits from a clone the agent never touched, so these are the second line: whatever a
 * config file says, git runs no hook, fsmonitor, attribute file, proxy or ssh command of
 * anyone else's choosing.
 */
const SAFE_CONFIG = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.attributesFile', '/dev/null'],
  ['core.sshCommand', 'ssh -o BatchMode=yes'],
  ['core.gitProxy', ''],
  ['core.askPass', ''],
  ['core.pager', 'cat'],
  ['http.proxy', ''],
  ['credential.helper', ''],
  ['commit.gpgSign', 'false'],
  ['gc.auto', '0'],
].flatMap(([key, value]) => ['-c', `${key}=${value}`]);

/** Git's environment form of `-c` (same precedence), for keys that may contain `=`. */
function pinnedEnv(pins: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pins.length) };
  pins.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/**
 * Pins for one repository and the filter drivers its tree names: the URL can't be rewritten
 * (`url.*.insteadOf`, longest prefix wins, so the whole URL mapped to itself beats any other),
 * and every named filter is emptied, so a `.gitattributes` line runs nothing.
 */
export function gitPins(repository: string, filterDrivers: Iterable<string>): Array<[string, string]> {
  const pins: Array<[string, string]> = [
    [`url.${repository}.insteadOf`, repository],
    [`url.${repository}.pushInsteadOf`, repository],
  ];
  for (const driver of filterDrivers) {
    for (const key of ['clean', 'smudge', 'process']) pins.push([`filter.${driver}.${key}`, '']);
    pins.push([`filter.${driver}.required`, 'false']);
  }
  return pins;
}

/**
 * Runs git with a clean environment (no system or global config, no prompts, only the common
 * transports), a timeout, and its stderr in the job log. Resolves with the exit code when it
 * is 0 or in `allowedExitCodes`; otherwise throws GitCommandError.
 */
export async function runGit(
  ctx: GitContext,
  args: string[],
  options: { allowedExitCodes?: number[] } = {},
): Promise<{ code: number; stdout: string }> {
  const env = buildCleanEnv(ctx.home, {
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ALLOW_PROTOCOL: 'file:git:http:https:ssh',
    GIT_SSH_COMMAND: ctx.sshCommand ?? 'ssh -o BatchMode=yes',
    GIT_AUTHOR_NAME: AGENT_AUTHOR.name,
    GIT_AUTHOR_EMAIL: AGENT_AUTHOR.email,
    GIT_COMMITTER_NAME: AGENT_AUTHOR.name,
    GIT_COMMITTER_EMAIL: AGENT_AUTHOR.email,
    ...pinnedEnv(ctx.pins ?? []),
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let stdoutBytes = 0;
  let stderrBytes = 0;
  const display = redactCredentials(args.join(' '));
  ctx.log.write(`$ git ${display}\n`);
  const outcome = await runBoundedProcess({
    command: 'git',
    args: [...SAFE_CONFIG, ...args],
    cwd: ctx.cwd,
    env,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    onOutput(chunk, stream) {
      if (stream === 'stdout' && stdoutBytes < STDOUT_CAP) {
        stdout.push(chunk);
        stdoutBytes += chunk.length;
      } else if (stream === 'stderr' && stderrBytes < STDERR_CAP) {
        stderr.push(chunk);
        stderrBytes += chunk.length;
      }
    },
  });
  if (stderrBytes > 0) ctx.log.write(redactCredentials(Buffer.concat(stderr).toString('utf8')));
  const name = args[0] ?? 'git';
  if (outcome.kind === 'spawnFailed') throw new GitCommandError(name, `could not start git (${outcome.code})`);
  if (outcome.kind === 'timedOut') throw new GitCommandError(name, 'timed out');
  if (outcome.kind === 'aborted') throw new GitCommandError(name, 'interrupted');
  const code = outcome.code ?? -1;
  if (code !== 0 && !(options.allowedExitCodes ?? []).includes(code)) {
    throw new GitCommandError(name, outcome.signal ? `killed by ${outcome.signal}` : `exit code ${code}`);
  }
  return { code, stdout: Buffer.concat(stdout).toString('utf8').trim() };
}
