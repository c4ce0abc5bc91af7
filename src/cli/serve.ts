import { systemClock } from '../platform/Clock.js';
import { createLogger } from '../platform/logging/createLogger.js';
import { startAppliance } from '../app/startAppliance.js';
import { DataDirLockedError } from '../platform/store/DataDirLock.js';
import { StoreFileError } from '../platform/store/StoreFileError.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { loadConfigOrExplain } from './loadConfigOrExplain.js';

/**
 * `enclave serve`: runs until SIGTERM/SIGINT, then drains and exits 0. On first start it
 * prints the new admin key once, as shell-evaluable lines.
 */
export async function runServe(_args: string[], io: CliIo): Promise<number> {
  const config = loadConfigOrExplain(io);
  if (!config) return ExitCode.config;
  const logger = createLogger(config.logLevel);
  let running;
  try {
    running = await startAppliance({ config, logger, clock: systemClock });
  } catch (err) {
    if (err instanceof DataDirLockedError || err instanceof StoreFileError) {
      io.err.write(`enclave: ${err.message}\n`);
      return ExitCode.failed;
    }
    throw err;
  }
  if (running.createdAdminKey) {
    io.out.write(`ENCLAVE_ADMIN_KEY=${running.createdAdminKey}\nENCLAVE_PROJECT_ID=${running.projectId}\n`);
    io.err.write('Save the admin key above: it is shown only this once.\n');
  }
  io.err.write(`Enclave ${running.url}${running.adminUrl === running.url ? '' : ` (admin API: ${running.adminUrl})`} (data: ${config.dataDir})\n`);

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  logger.info({ signal }, 'shutting down');
  // A hung module must not keep the container from stopping: exit anyway after the bound.
  const hardStop = setTimeout(() => {
    logger.error('shutdown took too long; exiting');
    process.exit(ExitCode.failed);
  }, config.server.shutdownTimeoutMs + 5000);
  hardStop.unref();
  await running.stop();
  clearTimeout(hardStop);
  logger.info('stopped');
  return ExitCode.ok;
}
