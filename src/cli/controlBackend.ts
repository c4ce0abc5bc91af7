import { readFileSync } from 'node:fs';
import { systemClock } from '../platform/Clock.js';
import type { Config } from '../config/schema.js';
import { DataDirLockedError } from '../platform/store/DataDirLock.js';
import { openControlStore, type ControlStore } from '../features/control/ControlStore.js';
import { SigningKeyring, type SigningKeyInfo } from '../platform/SigningKeyring.js';
import { retireSigningKey } from '../features/signingKeys/retireSigningKey.js';
import { rotateSigningKey } from '../features/signingKeys/rotateSigningKey.js';
import { createControlOperations, type SiteInput } from '../features/control/createControlOperations.js';
import { localCliKeyPath } from '../features/control/localCliKey.js';
import { readSiteVersions, removeSiteDeployments, type SiteVersionsOnDisk } from '../features/deployments/removeSiteDeployments.js';
import { ApiClient } from './ApiClient.js';
import type { CliIo } from './CliIo.js';
import { withDataDirLock } from './openStoreOffline.js';

/** A key as the keys verb prints it (the API's public shape). */
export interface KeyView {
  id: string;
  projectId: string;
  name: string;
  scope: 'read' | 'write';
  /** Absent on keys stored before kinds existed (admin). */
  kind?: 'admin' | 'assistant';
  last4: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdBy?: string | null;
}

/** A site as the sites verb prints it. */
export interface SiteView {
  domain: string;
  projectId: string;
  source: string;
  ref: string | null;
  origin: 'config' | 'store';
}

/**
 * What `enclave keys` (admin and signing keys) and `enclave sites` do, the same way whether they talk to the running
 * server's API or, with no server, to the store directly. Failures throw (AppError offline,
 * ApiError through the API).
 */
export interface ControlBackend {
  /** `api` when a running server was used, `store` otherwise (shown to the operator). */
  via: 'api' | 'store';
  listKeys(projectId?: string): Promise<KeyView[]>;
  createKey(input: {
    projectId?: string;
    name: string;
    scope: 'read' | 'write';
    kind?: 'admin' | 'assistant';
    expiresAt: Date | null;
  }): Promise<KeyView & { key: string }>;
  /** Revokes a key (with `cascade`, the keys it created too); `alsoRevoked` lists those. */
  revokeKey(id: string, cascade?: boolean): Promise<KeyView & { alsoRevoked: string[] }>;
  listSites(): Promise<SiteView[]>;
  addSite(input: SiteInput & { projectId?: string }): Promise<SiteView>;
  updateSite(domain: string, change: { source?: string; ref?: string | null }): Promise<SiteView>;
  removeSite(domain: string): Promise<void>;
  /** The versions a site with deployments of its own has on disk (what removing it deletes), or null. */
  siteVersions(domain: string): Promise<SiteVersionsOnDisk | null>;
  listSigningKeys(): Promise<SigningKeyInfo[]>;
  /** Makes a new key the one that signs new links; returns it. */
  rotateSigningKey(): Promise<SigningKeyInfo>;
  /** Retires a key: links it signed answer 403 from then on. Returns the keys left. */
  retireSigningKey(kid: string): Promise<SigningKeyInfo[]>;
}

/**
 * Runs `work` against the store under the data directory's lock when no server runs, otherwise
 * against the running appliance's API (its lock file names the URL; its local CLI key is
 * readable by the data directory's owner). Never writes the store behind a running server's
 * back, wherever the CLI runs: the lock is an OS lock, seen from any PID namespace or container.
 * Returns null when neither way is possible (explained on stderr).
 */
export async function withControlBackend<T>(config: Config, io: CliIo, work: (backend: ControlBackend) => Promise<T>): Promise<T | null> {
  const offline = await withDataDirLock(config, io, async () => {
    const control = await openControlStore(config);
    const value = await work(storeBackend(config, control));
    await control.document.flush();
    return value;
  });
  if (!(offline instanceof DataDirLockedError)) return offline;
  const client = await serverApi(config, io, offline);
  return client ? work(apiBackend(client)) : null;
}

/**
 * A client for the server that holds the lock, or null (explained) when it can't be used from
 * here: not listening yet, its key unreadable, or its URL unreachable (another container).
 */
async function serverApi(config: Config, io: CliIo, owner: DataDirLockedError): Promise<ApiClient | null> {
  const who = `a server${owner.pid ? ` (pid ${owner.pid})` : ''} owns ${config.dataDir}`;
  let key: string;
  try {
    key = readFileSync(localCliKeyPath(config.dataDir), 'utf8').trim();
  } catch (err) {
    io.err.write(
      `enclave: ${who}, but its CLI key ${localCliKeyPath(config.dataDir)} is not readable (${(err as NodeJS.ErrnoException).code}); run this as the user the server runs as (in a container: docker exec).\n`,
    );
    return null;
  }
  if (!owner.url) {
    io.err.write(`enclave: ${who} but is not listening yet; try again in a moment.\n`);
    return null;
  }
  const client = new ApiClient(owner.url, key, null);
  try {
    await client.raw('GET', '/_enclave/health');
  } catch {
    // Seen from another container the lock is held but the server's loopback address is not
    // ours: writing the store here would be lost at the server's next write, so refuse.
    io.err.write(
      `enclave: ${who} but does not answer at ${owner.url} from here (another container or network namespace?). Nothing was changed: run the command where the server runs (docker exec CONTAINER enclave …), or stop the server first.\n`,
    );
    return null;
  }
  return client;
}

/** The backend over the store, used under the data directory's lock when no server runs. */
function storeBackend(config: Config, control: ControlStore): ControlBackend {
  const ops = createControlOperations(control, systemClock);
  const defaultProject = () => {
    const id = control.projects.defaultProjectId();
    if (!id) throw new Error('No project exists yet; run `enclave init` first.');
    return id;
  };
  const siteProject = (domain: string) => control.sites.find(domain)?.projectId ?? defaultProject();
  const strip = <K extends { hash: string }>({ hash: _hash, ...rest }: K) => rest;
  return {
    via: 'store',
    listKeys: async (projectId) => control.keys.list(projectId).map(strip),
    async createKey(input) {
      const { key, record } = await ops.createKey({ ...input, projectId: input.projectId ?? defaultProject() });
      return { ...strip(record), key };
    },
    async revokeKey(id, cascade) {
      const revoked = await ops.revokeKey(control.keys.find(id)?.projectId ?? '', id, { cascade });
      return { ...strip(revoked.key), alsoRevoked: revoked.alsoRevoked.map((k) => k.id) };
    },
    listSites: async () => control.sites.list(),
    addSite: (input) => ops.addSite(input.projectId ?? defaultProject(), input),
    updateSite: (domain, change) => ops.updateSite(siteProject(domain), domain, change),
    async removeSite(domain) {
      await ops.removeSite(siteProject(domain), domain);
      // No server runs (this holds the lock): nothing serves or deploys the site, so its
      // versions go now, as a running server deletes them once the site is removed.
      if (domain.toLowerCase() !== config.staticExport.domain?.toLowerCase()) await removeSiteDeployments(config.dataDir, domain);
    },
    siteVersions: (domain) =>
      domain.toLowerCase() === config.staticExport.domain?.toLowerCase() ? Promise.resolve(null) : readSiteVersions(config.dataDir, domain),
    listSigningKeys: async () => SigningKeyring.load(config.dataDir).list(),
    rotateSigningKey: () => rotateSigningKey(SigningKeyring.load(config.dataDir), systemClock),
    async retireSigningKey(kid) {
      const keyring = SigningKeyring.load(config.dataDir);
      await retireSigningKey(keyring, kid);
      return keyring.list();
    },
  };
}

/** The backend over the local admin API (the server's own CLI key, default project). */
function apiBackend(client: ApiClient): ControlBackend {
  const site = (domain: string) => `/v1/sites/${encodeURIComponent(domain.toLowerCase())}`;
  return {
    via: 'api',
    listKeys: async () => (await client.request<{ keys: KeyView[] }>('GET', '/v1/keys')).keys,
    createKey: (input) =>
      client.request('POST', '/v1/keys', {
        name: input.name,
        scope: input.scope,
        ...(input.kind ? { kind: input.kind } : {}),
        ...(input.expiresAt ? { expiresAt: input.expiresAt.toISOString() } : {}),
      }),
    revokeKey: (id, cascade) => client.request('DELETE', `/v1/keys/${encodeURIComponent(id)}${cascade ? '?cascade=true' : ''}`),
    listSites: async () => (await client.request<{ sites: SiteView[] }>('GET', '/v1/sites')).sites,
    addSite: (input) =>
      client.request('POST', '/v1/sites', { domain: input.domain, source: input.source, ...(input.ref ? { ref: input.ref } : {}) }),
    updateSite: (domain, change) => client.request('PATCH', site(domain), change),
    removeSite: async (domain) => void (await client.request('DELETE', site(domain))),
    async siteVersions(domain) {
      type Status = { site: string | null; active: { version: string | null } | null; kept: { version: string | null }[] };
      const status = await client.request<Status>('GET', `/v1/deployments?domain=${encodeURIComponent(domain)}`);
      const versions = [...(status.active ? [status.active] : []), ...status.kept].map((d) => d.version ?? '?');
      return status.site === null || versions.length === 0 ? null : { live: status.active?.version ?? null, versions };
    },
    listSigningKeys: async () => (await client.request<{ keys: SigningKeyInfo[] }>('GET', '/v1/signing-keys')).keys,
    rotateSigningKey: () => client.request('POST', '/v1/signing-keys/rotate'),
    retireSigningKey: async (kid) =>
      (await client.request<{ keys: SigningKeyInfo[] }>('DELETE', `/v1/signing-keys/${encodeURIComponent(kid)}`)).keys,
  };
}
