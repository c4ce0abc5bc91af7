import { systemClock } from '../platform/Clock.js';
import { bootstrapDataDir } from '../app/bootstrap/bootstrapDataDir.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { loadConfigOrExplain } from './loadConfigOrExplain.js';
import { withOfflineStore } from './openStoreOffline.js';

export const USAGE = `usage: enclave init

Creates what first start creates, without serving: the data directory, the default project,
the signing secret and — when the store has no key yet — the first admin key, printed once as
ENCLAVE_ADMIN_KEY=… / ENCLAVE_PROJECT_ID=… lines (and kept in <dataDir>/secrets/initial-admin-key,
mode 0600, until first used). Running it again changes nothing, except that a missing signing
secret is made anew (links signed before stop working).`;

/**
 * `enclave init`: creates what first start creates, without serving. Also the documented
 * recovery for a lost signing secret: a new one is made (links signed before stop working).
 */
export async function runInit(_args: string[], io: CliIo): Promise<number> {
  const config = loadConfigOrExplain(io);
  if (!config) return ExitCode.config;
  const result = await withOfflineStore(config, io, (control) =>
    bootstrapDataDir(config.dataDir, control, systemClock, { recreateSigningKey: true }),
  );
  if (!result) return ExitCode.failed;
  if (result.adminKey) io.out.write(`ENCLAVE_ADMIN_KEY=${result.adminKey}\nENCLAVE_PROJECT_ID=${result.projectId}\n`);
  io.err.write(`Data directory ready: ${config.dataDir}${result.adminKey ? ' (save the key above: it is shown only once)' : ''}\n`);
  return ExitCode.ok;
}
