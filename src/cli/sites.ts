import { resolve } from 'node:path';
import { domainSchema } from '../config/sections/sites.js';
import { ExitCode, type CliIo } from './CliIo.js';
import type { ControlBackend } from './controlBackend.js';
import { confirm } from './confirm.js';
import { countOf } from './countOf.js';
import { parseVerbArgs } from './parseVerbArgs.js';
import { formatTable } from './printTable.js';
import { escapeControls, formatJson } from './escapeControls.js';
import { runControlVerb } from './runControlVerb.js';

export const USAGE = `usage:
  enclave sites add --domain HOST --source DIR [--ref REF] [--project proj_…]
  enclave sites list [--json]
  enclave sites update HOST [--source DIR] [--ref REF]
  enclave sites remove HOST [--yes]

DIR must be a folder with a docs.json or mint.json (with --ref: a local git repository).
While a server owns the data directory these go through its API and take effect at once;
otherwise they work on the store directly. Sites declared in the config file are listed but
can only be changed there.`;

/** `enclave sites add|list|update|remove`, live through the API or on the store when no server runs. */
export async function runSites(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  const parsed = parseVerbArgs(io, 'sites', USAGE, rest, {
    domain: { type: 'string' },
    source: { type: 'string' },
    ref: { type: 'string' },
    project: { type: 'string' },
    json: { type: 'boolean', default: false },
    yes: { type: 'boolean', default: false },
  });
  if (!parsed.ok) return parsed.code;
  const { values, positionals, usage } = parsed;
  if (!['add', 'list', 'update', 'remove'].includes(action ?? '')) return usage(action ? `unknown action '${action}'` : 'missing action');
  const domain = action === 'add' ? values.domain : positionals[0];
  if (action !== 'list') {
    if (!domain || !domainSchema.safeParse(domain).success)
      return usage(`${action === 'add' ? '--domain' : 'HOST'} must be a bare host name (no scheme, port or path)`);
    if (action === 'add' && !values.source) return usage('--source is required');
  }
  // Paths are made absolute here: the server resolves them on its own file system.
  const source = values.source ? resolve(values.source) : undefined;

  return runControlVerb(io, { project: values.project, usage }, async (backend) => {
    if (action === 'list') {
      const sites = await backend.listSites();
      io.out.write(
        values.json
          ? `${formatJson(sites)}\n`
          : formatTable(
              ['DOMAIN', 'PROJECT', 'SOURCE', 'REF', 'FROM'],
              sites.map((s) => [s.domain, s.projectId, s.source, s.ref, s.origin]),
            ),
      );
      return ExitCode.ok;
    }
    if (action === 'remove') return removeSite(io, backend, domain!, values.yes);
    const site =
      action === 'add'
        ? await backend.addSite({ domain: domain!, source: source!, ref: values.ref ?? null, projectId: values.project })
        : await backend.updateSite(domain!, { ...(source ? { source } : {}), ...(values.ref !== undefined ? { ref: values.ref } : {}) });
    io.err.write(
      `${escapeControls(`Site ${site.domain} → ${site.source}${site.ref ? ` @ ${site.ref}` : ''}`)}${backend.via === 'api' ? ' (live on the running server)' : ''}\n`,
    );
    return ExitCode.ok;
  });
}

/**
 * Says what removing `domain` takes away (its live version goes offline, its versions are
 * deleted), asks (or takes --yes), removes it, and says what was removed.
 */
async function removeSite(io: CliIo, backend: ControlBackend, domain: string, yes: boolean): Promise<number> {
  const site = (await backend.listSites()).find((s) => s.domain === domain.toLowerCase());
  if (!site) {
    io.err.write(`enclave: ${escapeControls(`no site ${domain}`)}\n`);
    return ExitCode.failed;
  }
  if (site.origin === 'config') {
    io.err.write(`enclave: ${escapeControls(`site ${site.domain} is declared in the config file; remove it there`)}\n`);
    return ExitCode.failed;
  }
  const onDisk = await backend.siteVersions(site.domain);
  const count = onDisk?.versions.length ?? 0;
  const deleted = count ? `${countOf(count, 'version')} (${onDisk!.versions.join(', ')})` : 'no versions';
  const what = [
    onDisk?.live ? `Its live version ${onDisk.live} goes offline: requests for ${site.domain} get the default site.` : null,
    `It is no longer exported or re-exported, and ${deleted} on disk ${count === 1 ? 'is' : 'are'} deleted.`,
  ]
    .filter(Boolean)
    .join(' ');
  if (!(await confirm(io, escapeControls(`Remove site ${site.domain}? ${what}`), yes))) return ExitCode.failed;
  await backend.removeSite(site.domain);
  io.err.write(
    `${escapeControls(`Removed site ${site.domain} (source ${site.source}): no longer served or exported; deleted ${deleted}${backend.via === 'api' ? ' (the server deletes them once it is idle)' : ''}.`)}\n`,
  );
  return ExitCode.ok;
}
