import { constants, existsSync, statSync } from 'node:fs';
import { access, readdir, readFile, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { SigningKeyring } from '../platform/SigningKeyring.js';
import { ConfigError, loadConfig } from '../config/loadConfig.js';
import type { Config } from '../config/schema.js';
import { planAgentIsolation } from '../features/agent/planAgentIsolation.js';
import { sampleDocsDir } from '../app/bootstrap/sampleDocs.js';
import { checkDocsSource } from '../render/index.js';
import { DataDirLock } from '../platform/store/DataDirLock.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { escapeControls } from './escapeControls.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** Passed, but the operator should know (printed WARN, not counted as a problem). */
  warn?: boolean;
}

export const USAGE = `usage: enclave doctor

Checks the configuration, the data directory (exists, writable, free space), every store file,
the signing secret, whether a server owns the data directory, every site's docs source
(a folder with a docs.json or mint.json that parses), and how agents would be isolated (WARN
when they would run unsandboxed as the server's user, as the server's start-up log warns;
judged for a server running as the user running doctor). Exit 0 when all pass, 1 otherwise.
Works while the server runs.`;

/** Below this much free space on the data volume, writes are at risk. */
const MIN_FREE_BYTES = 512 * 1024 * 1024;

/** `enclave doctor`: checks config, data directory permissions, disk space and store files. */
export async function runDoctor(_args: string[], io: CliIo): Promise<number> {
  const checks: Check[] = [];
  let config;
  try {
    config = loadConfig({ env: io.env });
    checks.push({ name: 'config', ok: true, detail: 'valid' });
  } catch (err) {
    checks.push({ name: 'config', ok: false, detail: err instanceof ConfigError ? err.problems.join('; ') : (err as Error).message });
  }
  if (config) {
    const dir = config.dataDir;
    const dirExists = existsSync(dir);
    checks.push({ name: 'data directory', ok: dirExists, detail: dirExists ? dir : `${dir} does not exist (run enclave init)` });
    if (dirExists) checks.push(...(await dataDirChecks(dir)));
    for (const site of config.sites) {
      const source = site.source;
      // A remote repository is fetched by the server; its reachability shows on the sources API.
      if (typeof source !== 'string') checks.push({ name: `site ${site.domain}`, ok: true, detail: `${source.git} (${source.branch})` });
    }
    const folderSites = config.sites.flatMap((s) => (typeof s.source === 'string' ? [{ ...s, source: s.source }] : []));
    for (const site of [...folderSites, ...(await storedSites(dir))]) {
      // A git source is checked out at its ref on export; here only the folder can be checked.
      const problem = site.ref
        ? existsSync(site.source) && statSync(site.source).isDirectory()
          ? null
          : `source ${site.source} is missing`
        : await checkDocsSource(site.source);
      checks.push({ name: `site ${site.domain}`, ok: problem === null, detail: problem ?? site.source });
    }
    checks.push({ name: 'sample docs', ok: existsSync(join(sampleDocsDir, 'docs.json')), detail: sampleDocsDir });
    if (config.agent.command.length > 0) checks.push(checkAgentIsolation(config));
  }
  for (const c of checks) io.out.write(`${!c.ok ? 'FAIL' : c.warn ? 'WARN' : 'ok  '}  ${c.name}: ${escapeControls(c.detail)}\n`);
  const failed = checks.filter((c) => !c.ok).length;
  io.out.write(failed ? `${failed} problem(s) found\n` : 'all checks passed\n');
  return failed ? ExitCode.failed : ExitCode.ok;
}

/** How the server would isolate agents: what its start-up log says, refusal or warning included. */
function checkAgentIsolation(config: Config): Check {
  const name = 'agent isolation';
  try {
    const { user, plan } = planAgentIsolation(config, process.getuid?.() ?? -1);
    if (plan.warning) return { name, ok: true, warn: true, detail: plan.warning };
    if (plan.sandbox) return { name, ok: true, detail: `Landlock sandbox (ABI ${plan.sandbox.abi})${user ? `, as uid ${user.uid}` : ''}` };
    return { name, ok: true, detail: user ? `as uid ${user.uid} gid ${user.gid}, a user of its own` : 'as the server user' };
  } catch (err) {
    return { name, ok: false, detail: (err as Error).message };
  }
}

/** The data directory's own checks (it exists): writable, free space, store files, signing secret, server. */
async function dataDirChecks(dir: string): Promise<Check[]> {
  const checks: Check[] = [];
  const writable = await access(dir, constants.W_OK).then(
    () => true,
    () => false,
  );
  checks.push({ name: 'data directory writable', ok: writable, detail: writable ? 'yes' : 'no write permission for this user' });
  const fsStats = await statfs(dir);
  const free = fsStats.bavail * fsStats.bsize;
  checks.push({ name: 'disk space', ok: free >= MIN_FREE_BYTES, detail: `${(free / 1024 ** 3).toFixed(1)} GiB free` });
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json'))) {
    const text = await readFile(join(dir, file), 'utf8').catch((e: Error) => e);
    let ok = typeof text === 'string';
    if (ok) {
      try {
        JSON.parse(text as string);
      } catch {
        ok = false;
      }
    }
    checks.push({ name: `store ${file}`, ok, detail: ok ? 'loads' : 'damaged or unreadable: restore it from a backup' });
  }
  try {
    SigningKeyring.load(dir);
    checks.push({ name: 'signing secret', ok: true, detail: 'present, mode 0600' });
  } catch (err) {
    checks.push({ name: 'signing secret', ok: false, detail: (err as Error).message });
  }
  checks.push({ name: 'server', ok: true, detail: await describeOwner(dir) });
  return checks;
}

/**
 * Sites added at run time, read from control.json without taking the lock (doctor must work
 * while the server runs); a damaged file is reported by the store check above.
 */
async function storedSites(dataDir: string): Promise<{ domain: string; source: string; ref?: string | null }[]> {
  try {
    const data = JSON.parse(await readFile(join(dataDir, 'control.json'), 'utf8')) as {
      sites?: { domain: string; source: string; ref?: string | null }[];
    };
    return Array.isArray(data.sites) ? data.sites : [];
  } catch {
    return [];
  }
}

/** Whether a server holds the data directory's lock, and where it answers. */
async function describeOwner(dir: string): Promise<string> {
  try {
    const owner = await DataDirLock.owner(dir);
    if (!owner) return 'not running';
    return `running (${[owner.pid && `pid ${owner.pid}`, owner.url ?? 'not listening yet'].filter(Boolean).join(', ')})`;
  } catch (err) {
    return `unknown (${(err as Error).message})`;
  }
}
