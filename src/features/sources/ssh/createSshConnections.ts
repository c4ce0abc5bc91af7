import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../../config/schema.js';
import type { Clock } from '../../../platform/Clock.js';
import { SshConnections } from './SshConnections.js';

/** Where setpriv(1) (util-linux, beside the `flock` the data-dir lock runs) may be. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'];

/** The shared connections' directory in the data directory. */
export function sshConnectionsDir(dataDir: string): string {
  return join(dataDir, 'ssh');
}

/**
 * The sources feature's shared ssh connections, or null when `sources.sshConnectionIdleSeconds`
 * is 0. Masters are started through `setpriv --pdeathsig TERM` where it exists, so a master
 * ends with the appliance even when the appliance is killed without its shutdown; the
 * directory is emptied here of what an earlier run left.
 */
export async function createSshConnections(config: Config, clock: Clock, logger: Logger): Promise<SshConnections | null> {
  const idleSeconds = config.sources.sshConnectionIdleSeconds;
  if (idleSeconds === 0) return null;
  const setpriv = SETPRIV.find((path) => existsSync(path));
  const connections = new SshConnections({
    dir: sshConnectionsDir(config.dataDir),
    clock,
    logger,
    idleMs: idleSeconds * 1000,
    launcher: setpriv ? [setpriv, '--pdeathsig', 'TERM', '--'] : [],
  });
  await connections.prepare();
  return connections;
}
