import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { apiClientFromEnv, reportApiFailure, type ApiClient } from './ApiClient.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { formatTable } from './printTable.js';
import { escapeControls, formatJson } from './escapeControls.js';

export const USAGE = `usage:
  enclave deploy <url|file> [--version V]   fetch, verify and activate a bundle
  enclave deploy --rollback [--to V]        switch back to the previous (or a named) kept version
  enclave deploy --status [--json]          show the live version, kept versions and the last error

Neither deploy nor rollback asks for confirmation (the kept versions undo either at once);
--yes is accepted so scripts can pass it to every verb that changes something.`;

/** A deployment as the API answers it (the fields the CLI prints). */
interface Deployment {
  id: string;
  status: string;
  version: string | null;
  domain: string | null;
  source: string;
  activatedAt: string | null;
  error: string | null;
}

/** Polls at most this often, for at most this long, after a 202. */
const POLL_MS = 1000;
const POLL_LIMIT = 3600;

/**
 * `enclave deploy`: activates a bundle URL or file on the running appliance, rolls back, or
 * shows the deployment state, through the local admin API. A file path is made absolute here,
 * because the server resolves it on its own file system.
 */
export async function runDeploy(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        version: { type: 'string' },
        rollback: { type: 'boolean', default: false },
        to: { type: 'string' },
        status: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        // Accepted like every other verb's: deploy and rollback don't ask, since the kept
        // versions make either one undoable at once, so scripts may pass --yes uniformly.
        yes: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    io.err.write(`${(err as Error).message}\n${USAGE}\n`);
    return ExitCode.usage;
  }
  const { values, positionals } = parsed;
  const modes = [values.rollback, values.status, positionals.length > 0].filter(Boolean).length;
  if (modes !== 1 || positionals.length > 1 || (values.to && !values.rollback) || (values.version && positionals.length === 0)) {
    io.err.write(`${USAGE}\n`);
    return ExitCode.usage;
  }
  const client = apiClientFromEnv(io);
  if (!client) return ExitCode.usage;
  try {
    if (values.status) return await showStatus(client, io, values.json);
    if (values.rollback) {
      const record = await client.request<Deployment>('POST', '/v1/deployments/rollback', values.to ? { version: values.to } : {});
      io.err.write(`Rolled back: version ${escapeControls(String(record.version))} is live (${escapeControls(record.id)})\n`);
      if (values.json) io.out.write(`${formatJson(record)}\n`);
      return ExitCode.ok;
    }
    return await deploy(client, io, positionals[0], values.version ?? null, values.json);
  } catch (err) {
    return reportApiFailure(io, err);
  }
}

async function deploy(client: ApiClient, io: CliIo, source: string, version: string | null, json: boolean): Promise<number> {
  const bundleUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(source) ? source : resolve(source);
  let record = await client.request<Deployment>('POST', '/v1/deployments', version ? { bundleUrl, version } : { bundleUrl });
  for (let i = 0; record.status === 'running' && i < POLL_LIMIT; i++) {
    if (i === 0) io.err.write(`Deployment ${escapeControls(record.id)} is running…\n`);
    await new Promise((r) => setTimeout(r, POLL_MS));
    record = await client.request<Deployment>('GET', `/v1/deployments/${record.id}`);
  }
  if (json) io.out.write(`${formatJson(record)}\n`);
  if (record.status === 'active') {
    io.err.write(`Version ${escapeControls(String(record.version))} of ${escapeControls(String(record.domain))} is live (${escapeControls(record.id)})\n`);
    return ExitCode.ok;
  }
  if (record.status === 'unchanged') {
    io.err.write(`Nothing to do: that bundle is already live (version ${escapeControls(String(record.version))})\n`);
    return ExitCode.ok;
  }
  io.err.write(`enclave: ${escapeControls(`deployment ${record.id} ${record.status}${record.error ? `: ${record.error}` : ''}`)}\n`);
  return ExitCode.failed;
}

async function showStatus(client: ApiClient, io: CliIo, json: boolean): Promise<number> {
  const status = await client.request<{ active: Deployment | null; kept: Deployment[]; running: Deployment | null; lastError: { at: string; reason: string } | null }>('GET', '/v1/deployments');
  if (json) {
    io.out.write(`${formatJson(status)}\n`);
    return ExitCode.ok;
  }
  const rows = [...(status.active ? [status.active] : []), ...status.kept].map((d) => [d.status === 'active' ? '* live' : 'kept', d.version ?? '', d.domain ?? '', d.activatedAt ?? '', d.id]);
  io.out.write(rows.length ? formatTable(['STATE', 'VERSION', 'DOMAIN', 'ACTIVATED', 'ID'], rows) : 'No site version is active.\n');
  if (status.running) io.out.write(`Running: ${escapeControls(status.running.id)} from ${escapeControls(status.running.source)}\n`);
  if (status.lastError) io.out.write(`Last error (${escapeControls(status.lastError.at)}): ${escapeControls(status.lastError.reason)}\n`);
  return ExitCode.ok;
}
