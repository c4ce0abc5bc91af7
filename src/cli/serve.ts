import { resolve } from 'node:path';
import { systemClock } from '../platform/Clock.js';
import { createLogger } from '../platform/logging/createLogger.js';
import { prettyLogStream } from '../platform/logging/prettyLogStream.js';
import { startAppliance, type RunningAppliance } from '../app/startAppliance.js';
import type { Config } from '../config/schema.js';
import { DataDirLockedError } from '../platform/store/DataDirLock.js';
import { StoreFileError } from '../platform/store/StoreFileError.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { loadConfigOrExplain } from './loadConfigOrExplain.js';

export const USAGE = `usage: enclave serve

Runs the appliance (admin API, live docs site, export workers, scheduled tasks) until SIGTERM
or SIGINT. Settings come from config/default.json, the file named by ENCLAVE_CONFIG and
ENCLAVE_* variables. On first start it prints the new admin key once (also kept in
<dataDir>/secrets/initial-admin-key, mode 0600, until the key is first used).`;

/**
 * `enclave serve`: runs until SIGTERM/SIGINT, then drains and exits 0. On first start it
 * prints the new admin key once, as shell-evaluable lines.
 */
export async function runServe(args: string[], io: CliIo): Promise<number> {
  if (args.length > 0) {
    io.err.write(`enclave serve: unexpected argument '${args[0]}'\n${USAGE}\n`);
    return ExitCode.usage;
  }
  const config = loadConfigOrExplain(io);
  if (!config) return ExitCode.config;
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && Boolean((io.out as { isTTY?: boolean }).isTTY));
  const logger = createLogger(config.logLevel, pretty ? prettyLogStream(io.out) : undefined);
  let running;
  try {
    running = await startAppliance({ config, logger, clock: systemClock });
  } catch (err) {
    const problem = explainStartFailure(err, config);
    if (problem) {
      io.err.write(`enclave: ${problem}\n`);
      return ExitCode.failed;
    }
    throw err;
  }
  if (running.createdAdminKey) {
    io.out.write(`ENCLAVE_ADMIN_KEY=${running.createdAdminKey}\nENCLAVE_PROJECT_ID=${running.projectId}\n`);
    io.err.write(
      `Save the admin key above: it is shown only this once (until first used it is also in ${resolve(config.dataDir, 'secrets', 'initial-admin-key')}).\n`,
    );
  }
  io.err.write(startBanner(running, config, io.env));
  void running.firstSiteVersion?.then((version) =>
    io.err.write(
      version
        ? `Docs site is up: ${running.url}/ (version ${version})\n`
        : `The docs site could not be built; see the log. ${running.url}/ answers 503.\n`,
    ),
  );

  // Kept listening after the first: under `npm start` one Ctrl-C arrives twice (the terminal
  // signals npm and the server, and npm forwards its copy), and a second delivery must not kill
  // the process mid-drain. The hard stop below still bounds the shutdown.
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.on('SIGTERM', () => resolve('SIGTERM'));
    process.on('SIGINT', () => resolve('SIGINT'));
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

/** One line for the start failures an operator causes and can fix; null for anything else. */
function explainStartFailure(err: unknown, config: Config): string | null {
  if (err instanceof DataDirLockedError || err instanceof StoreFileError) return err.message;
  const code = (err as NodeJS.ErrnoException)?.code;
  const where = `${config.server.host}:${config.server.port}`;
  const failed = err as { port?: number };
  if (code === 'EADDRINUSE' && !config.server.adminListen && failed.port !== undefined && failed.port !== config.server.port)
    return `cannot listen on ${config.server.host}:${failed.port} for the dashboard: the port is already in use. Choose another with server.dashboardPort in the config file or ENCLAVE_SERVER__DASHBOARD_PORT.`;
  if (code === 'EADDRINUSE')
    return `cannot listen on ${where}: the port is already in use. Stop the other program or choose another port with server.port in the config file or ENCLAVE_PORT.`;
  if (code === 'EACCES')
    return `cannot listen on ${where}: permission denied (ports below 1024 need privileges). Choose another port with server.port in the config file or ENCLAVE_PORT.`;
  if (code === 'EADDRNOTAVAIL')
    return `cannot listen on ${where}: no such address on this machine. Fix server.host in the config file or ENCLAVE_HOST.`;
  return null;
}

/** What an operator needs to find everything: the config file, data directory and URLs. */
function startBanner(running: RunningAppliance, config: Config, env: NodeJS.ProcessEnv): string {
  const configFile = env.ENCLAVE_CONFIG ? resolve(env.ENCLAVE_CONFIG) : 'none (built-in defaults and ENCLAVE_* variables)';
  const port = new URL(running.url).port;
  const sites = running.control.sites.list().map((s) => `    http://${s.domain}${port === '80' ? '' : `:${port}`}/  (source ${s.source})`);
  return [
    `Enclave ${running.url} ready`,
    `  config file:    ${configFile}`,
    `  data directory: ${resolve(config.dataDir)}`,
    `  admin API:      ${running.adminUrl}/v1  (OpenAPI: ${running.adminUrl}/openapi.json)`,
    `  docs site:      ${running.url}/${running.firstSiteVersion ? '  (the first export is running: up in seconds, when "Docs site is up" is printed; until then it answers 503)' : ''}`,
    `  dashboard:      ${running.dashboardUrl}/_enclave/admin  (an origin of its own: docs pages can't reach its key)`,
    ...(sites.length ? ['  sites (by Host name):', ...sites] : []),
    '',
  ].join('\n');
}
