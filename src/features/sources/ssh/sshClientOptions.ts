import type { GitSourceConfig } from '../../../config/sections/gitSource.js';

/** One ssh option as `-o Key=Value` or a config-file line `Key Value` would give it. */
export type SshOption = readonly [key: string, value: string];

/**
 * The options every ssh run for `source` gets, the shared connection's master and the fetches
 * alike (so a master can't be laxer than a direct login):
 * - only the source's own files count: `knownHostsFile` is the only trusted list (strict, never
 *   learnt or updated: `UpdateHostKeys=no` keeps a read-only secret mount untouched), and the
 *   only key offered is `sshKeyFile`'s (`IdentityFile=none` stops ssh trying ~/.ssh/id_*);
 * - nothing waits on a prompt (`BatchMode`);
 * - no GSSAPI round trip: a git host takes keys, and a Kerberos lookup costs time per login.
 * The caller adds `-F /dev/null` (no ssh_config of the machine or the server's user) or the
 * shared connection's own config file, which holds exactly these lines.
 */
export function sshClientOptions(source: Pick<GitSourceConfig, 'knownHostsFile' | 'sshKeyFile'>): SshOption[] {
  if (!source.knownHostsFile) throw new Error('an ssh source needs knownHostsFile (host keys are never learnt on first use)');
  return [
    ['BatchMode', 'yes'],
    ['StrictHostKeyChecking', 'yes'],
    ['UserKnownHostsFile', sshPath(source.knownHostsFile)],
    ['GlobalKnownHostsFile', '/dev/null'],
    ['UpdateHostKeys', 'no'],
    ['GSSAPIAuthentication', 'no'],
    ['IdentitiesOnly', 'yes'],
    ['IdentityFile', source.sshKeyFile ? sshPath(source.sshKeyFile) : 'none'],
  ];
}

/**
 * A path as ssh's option parser must see it: ssh expands `%` tokens in these paths (so a
 * literal one is `%%`) and splits values at blanks unless they are double-quoted. A path with
 * a double quote or a line break can't be written at all.
 */
export function sshPath(path: string): string {
  if (/["\n\r]/.test(path)) throw new Error(`ssh can't be given a path holding a double quote or a line break: ${JSON.stringify(path)}`);
  const escaped = path.replaceAll('%', '%%');
  return /\s/.test(escaped) ? `"${escaped}"` : escaped;
}

/** Quotes a word for the shell git runs `GIT_SSH_COMMAND` through. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./=:@%-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** `ssh -F /dev/null -o Key=Value …`: a command line for GIT_SSH_COMMAND with `options`. */
export function sshCommandLine(options: readonly SshOption[], configFile = '/dev/null'): string {
  return ['ssh', '-F', shellQuote(configFile), ...options.flatMap(([key, value]) => ['-o', shellQuote(`${key}=${value}`)])].join(' ');
}

/** The same options as an ssh_config file's lines. */
export function sshConfigText(options: readonly SshOption[]): string {
  return options.map(([key, value]) => `${key} ${value}\n`).join('');
}
