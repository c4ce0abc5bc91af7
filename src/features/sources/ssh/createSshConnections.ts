import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../../config/schema.js';
import type { Clock } from '../../../platform/Clock.js';
import { SshConnections } from './SshConnections.js';

/** Where setpriv(1) (util-linux, beside the `flock` the data-dir lock runs) may be. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'];

/**
 * The prefix a master is started with: `setpriv --pdeathsig TERM --` where setpriv exists, so
 * the kernel ends the master when the appliance dies, shutdown or not; else none.
 */
export function masterLauncher(): string[] {
  const setpriv = SETPRIV.find((path) => existsSync(path));
  return setpriv ? [setpriv, '--pdeathsig', 'TERM', '--'] : [];
}

/** The shared connections' directory in the data directory. */
export function sshConnectionsDir(dataDir: string): string {
  return join(dataDir, 'ssh');
}

/**
 * True when agent jobs may run as the server's own user. Such an agent can connect to any
 * socket that user can (Landlock does not restrict connecting to a named unix socket) and
 * `/proc/net/unix` lists every socket's path, so a shared connection would lend it the deploy
 * key's access to the git server, which the sandbox otherwise keeps from it.
 */
export function agentSharesServerUser(agent: Config['agent'], serverUid: number): boolean {
  if (agent.command.length === 0) return false;
  if (agent.runAsUser === 'server') return true;
  if (agent.runAsUser === 'auto') return serverUid !== 0;
  return Number(agent.runAsUser.split(':')[0]) === serverUid;
}

/**
 * The sources feature's shared ssh connections, or null when `sources.sshConnectionIdleSeconds`
 * is 0 or an agent may run as the server's user (agentSharesServerUser). Masters start
 * through masterLauncher; the directory is emptied here of what an earlier run left.
 */
export async function createSshConnections(config: Config, clock: Clock, logger: Logger): Promise<SshConnections | null> {
  const idleSeconds = config.sources.sshConnectionIdleSeconds;
  if (idleSeconds === 0) return null;
  if (agentSharesServerUser(config.agent, process.getuid?.() ?? -1)) {
    logger.info('ssh sources: every fetch logs in; no shared connection while agent jobs may run as the server user');
    return null;
  }
  const connections = new SshConnections({
    dir: sshConnectionsDir(config.dataDir),
    clock,
    logger,
    idleMs: idleSeconds * 1000,
    launcher: masterLauncher(),
  });
  // Leftovers can't stop the appliance: a master never reuses a name, so they only take room.
  await connections.prepare().catch((err: Error) => logger.warn({ err: err.message }, 'ssh: could not clear what an earlier run left'));
  return connections;
}
