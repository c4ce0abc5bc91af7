import { resolve } from 'node:path';
import { apiClientFromEnv, reportApiFailure, type ApiClient } from './ApiClient.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { confirm } from './confirm.js';
import { formatTable } from './printTable.js';
import { parseVerbArgs } from './parseVerbArgs.js';
import { escapeControls, formatJson } from './escapeControls.js';

export const USAGE = `usage:
  enclave deploy <url|file> [--domain D] [--version V] [--label NAME] [--allow-failed]
                                            fetch, verify and activate a bundle
  enclave deploy --rollback [--to V] [--yes]
                                            switch back to the previous (or a named) kept version
  enclave deploy --status [--json]          show the live version, kept versions and the last error
options:
  --domain D      the site to act on (a configured site's domain); default: the default site.
                  A bundle goes only to the site its manifest names: one built for another
                  domain is refused unless --allow-other-domain
  --label NAME    a name for this deployment, shown in the history
  --allow-failed  activate even when the bundle's build report lists failed pages (recorded)
  --allow-other-domain
                  activate a bundle built for another domain on this site (recorded)
  --yes           roll back without asking (needed when there is no terminal to ask on)`;

/** A deployment as the API answers it (the fields the CLI prints). */
interface Deployment {
  id: string;
  status: string;
  version: string | null;
  domain: string | null;
  site: string | null;
  label: string | null;
  outcome?: 'activated' | 'unchanged' | 'reactivated';
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
  const parsed = parseVerbArgs(io, 'deploy', USAGE, args, {
    version: { type: 'string' },
    rollback: { type: 'boolean', default: false },
    to: { type: 'string' },
    status: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    domain: { type: 'string' },
    label: { type: 'string' },
    'allow-failed': { type: 'boolean', default: false },
    'allow-other-domain': { type: 'boolean', default: false },
    yes: { type: 'boolean', default: false },
  });
  if (!parsed.ok) return parsed.code;
  const { values, positionals, usage } = parsed;
  const deploying = positionals.length > 0;
  const modes = [values.rollback, values.status, deploying].filter(Boolean).length;
  if (modes === 0) return usage('give a bundle URL or file, --rollback or --status');
  if (modes > 1) return usage('a bundle, --rollback and --status go one at a time');
  if (positionals.length > 1) return usage('one bundle at a time');
  if (values.to && !values.rollback) return usage('--to goes with --rollback');
  if (values.yes && !values.rollback) return usage('--yes goes with --rollback');
  const deployOnly = (['version', 'label', 'allow-failed', 'allow-other-domain'] as const).find((name) => values[name]);
  if (deployOnly && !deploying) return usage(`--${deployOnly} goes with a bundle to deploy`);
  const client = apiClientFromEnv(io);
  if (!client) return ExitCode.usage;
  try {
    const site = values.domain ? { domain: values.domain } : {};
    if (values.status) return await showStatus(client, io, values.domain ?? null, values.json);
    if (values.rollback) {
      const what = `${values.to ? `version ${values.to}` : 'the previous version'}${values.domain ? ` of ${values.domain}` : ''}`;
      if (!(await confirm(io, `Roll the live site back to ${what}?`, values.yes))) return ExitCode.failed;
      const record = await client.request<Deployment>('POST', '/v1/deployments/rollback', {
        ...(values.to ? { version: values.to } : {}),
        ...site,
      });
      io.err.write(`Rolled back: version ${escapeControls(String(record.version))} is live (${escapeControls(record.id)})\n`);
      if (values.json) io.out.write(`${formatJson(record)}\n`);
      return ExitCode.ok;
    }
    const body = {
      ...site,
      ...(values.version ? { version: values.version } : {}),
      ...(values.label ? { label: values.label } : {}),
      ...(values['allow-failed'] ? { allowFailed: true } : {}),
      ...(values['allow-other-domain'] ? { allowOtherDomain: true } : {}),
    };
    return await deploy(client, io, positionals[0], body, values.json);
  } catch (err) {
    return reportApiFailure(io, err);
  }
}

async function deploy(client: ApiClient, io: CliIo, source: string, options: Record<string, unknown>, json: boolean): Promise<number> {
  const bundleUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(source) ? source : resolve(source);
  let record = await client.request<Deployment>('POST', '/v1/deployments', { bundleUrl, ...options });
  for (let i = 0; record.status === 'running' && i < POLL_LIMIT; i++) {
    if (i === 0) io.err.write(`Deployment ${escapeControls(record.id)} is running…\n`);
    await new Promise((r) => setTimeout(r, POLL_MS));
    record = await client.request<Deployment>('GET', `/v1/deployments/${record.id}`);
  }
  if (json) io.out.write(`${formatJson(record)}\n`);
  if (record.outcome === 'unchanged') {
    io.err.write(`Nothing to do: that bundle is already live (${escapeControls(`version ${record.version}, ${record.id}`)})\n`);
    return ExitCode.ok;
  }
  if (record.outcome === 'reactivated') {
    io.err.write(
      `That bundle was kept on disk: switched back to ${escapeControls(`version ${record.version} (${record.id})`)}; no new history row\n`,
    );
    return ExitCode.ok;
  }
  if (record.status === 'active') {
    io.err.write(
      `${escapeControls(`Version ${record.version} of ${record.domain} is live${record.site ? ` at ${record.site}` : ''} (${record.id})`)}\n`,
    );
    return ExitCode.ok;
  }
  io.err.write(`enclave: ${escapeControls(`deployment ${record.id} ${record.status}${record.error ? `: ${record.error}` : ''}`)}\n`);
  return ExitCode.failed;
}

async function showStatus(client: ApiClient, io: CliIo, domain: string | null, json: boolean): Promise<number> {
  const path = domain ? `/v1/deployments?domain=${encodeURIComponent(domain)}` : '/v1/deployments';
  const status = await client.request<{
    active: Deployment | null;
    kept: Deployment[];
    running: Deployment | null;
    lastError: { at: string; reason: string } | null;
  }>('GET', path);
  if (json) {
    io.out.write(`${formatJson(status)}\n`);
    return ExitCode.ok;
  }
  const rows = [...(status.active ? [status.active] : []), ...status.kept].map((d) => [
    d.status === 'active' ? '* live' : 'kept',
    d.version ?? '',
    d.label ?? '',
    d.domain ?? '',
    d.activatedAt ?? '',
    d.id,
  ]);
  io.out.write(
    rows.length ? formatTable(['STATE', 'VERSION', 'LABEL', 'DOMAIN', 'ACTIVATED', 'ID'], rows) : 'No site version is active.\n',
  );
  if (status.running) io.out.write(`Running: ${escapeControls(status.running.id)} from ${escapeControls(status.running.source)}\n`);
  if (status.lastError) io.out.write(`Last error (${escapeControls(status.lastError.at)}): ${escapeControls(status.lastError.reason)}\n`);
  return ExitCode.ok;
}
