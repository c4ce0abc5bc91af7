import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { domainSchema } from '../config/sections/sites.js';
import { systemClock } from '../platform/Clock.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { loadConfigOrExplain } from './loadConfigOrExplain.js';
import { withOfflineStore } from './openStoreOffline.js';
import { formatTable } from './printTable.js';
import { formatJson } from './escapeControls.js';

const USAGE = `usage:
  enclave sites add --domain HOST --source DIR [--ref REF] [--project proj_…]
  enclave sites list [--json]`;

/** `enclave sites add|list`, on the store directly (the server must be stopped). */
export async function runSites(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { domain: { type: 'string' }, source: { type: 'string' }, ref: { type: 'string' }, project: { type: 'string' }, json: { type: 'boolean', default: false } },
    }));
  } catch (err) {
    io.err.write(`${(err as Error).message}\n${USAGE}\n`);
    return ExitCode.usage;
  }
  if (action !== 'add' && action !== 'list') {
    io.err.write(`${USAGE}\n`);
    return ExitCode.usage;
  }
  if (action === 'add') {
    const problems: string[] = [];
    if (!values.domain || !domainSchema.safeParse(values.domain).success) problems.push('--domain must be a bare host name (no scheme, port or path)');
    if (!values.source) problems.push('--source is required');
    else if (!isDirectory(resolve(values.source))) problems.push(`--source ${values.source} is not a directory`);
    if (problems.length) {
      io.err.write(`${problems.join('\n')}\n${USAGE}\n`);
      return ExitCode.usage;
    }
  }
  const config = loadConfigOrExplain(io);
  if (!config) return ExitCode.config;
  const code = await withOfflineStore(config, io, async (control) => {
    if (action === 'list') {
      const sites = control.sites.list();
      io.out.write(values.json ? `${formatJson(sites)}\n` : formatTable(['DOMAIN', 'PROJECT', 'SOURCE', 'REF', 'FROM'], sites.map((s) => [s.domain, s.projectId, s.source, s.ref, s.origin])));
      return ExitCode.ok;
    }
    const projectId = values.project ?? control.projects.defaultProjectId();
    if (!projectId || !control.projects.find(projectId)) {
      io.err.write(`Unknown project ${projectId ?? '(none: run enclave init)'}\n`);
      return ExitCode.failed;
    }
    await control.sites.upsert({ domain: values.domain!.toLowerCase(), source: resolve(values.source!), ref: values.ref ?? null, projectId, createdAt: systemClock.now().toISOString() });
    io.err.write(`Site ${values.domain} → ${resolve(values.source!)}\n`);
    return ExitCode.ok;
  });
  return code ?? ExitCode.failed;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
