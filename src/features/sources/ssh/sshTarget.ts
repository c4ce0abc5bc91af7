/** Where git's ssh transport logs in for a URL: what a shared connection must be to. */
export interface SshTarget {
  /** Absent: ssh's default, the appliance's own user name, for the master and git alike. */
  user?: string;
  host: string;
  /** Absent: 22 (the options carry no Port, and `-F` names no other config). */
  port?: number;
}

const USER = /^[A-Za-z0-9._-]+$/;
const HOST = /^(?:(?!-)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])$/;

/**
 * The user, host and port git's ssh transport would pass to ssh for `url`
 * (`ssh://[user@]host[:port]/path` or scp-like `[user@]host:path`), or null when the URL is
 * anything less plain. A fetch through a shared connection goes wherever its master went, so a
 * URL this reads differently from git must not get one: null means every fetch logs in itself.
 */
export function sshTarget(url: string): SshTarget | null {
  const ssh = /^ssh:\/\/(?:([^@/]*)@)?(\[[^\]/]*\]|[^:/]*)(?::(\d*))?\//.exec(url);
  const scp = ssh ? null : /^(?:([^@/:]*)@)?([^:/[\]]+):(?!\/\/)/.exec(url);
  const match = ssh ?? scp;
  if (!match) return null;
  const [, user, host, port] = match;
  if (user !== undefined && !USER.test(user)) return null;
  if (!host || !HOST.test(host)) return null;
  if (port === '') return null;
  const number = port === undefined ? undefined : Number(port);
  if (number !== undefined && !(number >= 1 && number <= 65535)) return null;
  return {
    ...(user === undefined ? {} : { user }),
    host: host.startsWith('[') ? host.slice(1, -1) : host,
    ...(number === undefined ? {} : { port: number }),
  };
}
