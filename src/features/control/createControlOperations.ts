import type { ReaderAuthInput, ReaderAuthSetting } from '../../config/sections/readerAuth.js';
import { readerAuthSetting } from './readerAuthSetting.js';
import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import { checkDocsSource } from '../../render/index.js';
import type { AdminKeyRecord, ProjectRecord } from './controlDocument.js';
import type { ControlStore } from './ControlStore.js';
import { createAdminKey, type NewAdminKey } from './createAdminKey.js';
import { revokeAdminKey, type RevokedKeys } from './revokeAdminKey.js';
import type { Site } from './SiteDirectory.js';

/** A site as a client declares it through the API. */
export interface SiteInput {
  domain: string;
  source: string;
  ref?: string | null;
  /** Reader sign-in; a password in it is hashed before it is stored. */
  auth?: ReaderAuthInput;
}

/**
 * The control-plane operations behind /v1/projects, /v1/keys and /v1/sites, always within the
 * caller's project: another project's key or site is indistinguishable from none (404).
 */
export interface ControlOperations {
  getProject(projectId: string): ProjectRecord;
  updateProject(projectId: string, change: { name?: string; features?: { staticExport?: boolean } }): Promise<ProjectRecord>;
  listKeys(projectId: string): AdminKeyRecord[];
  createKey(input: NewAdminKey): Promise<{ key: string; record: AdminKeyRecord }>;
  /** Revokes a key (with `cascade`, also the keys it minted); 409 when no usable write key would be left. */
  revokeKey(projectId: string, keyId: string, options?: { cascade?: boolean }): Promise<RevokedKeys>;
  listSites(projectId: string): Site[];
  addSite(projectId: string, input: SiteInput): Promise<Site>;
  updateSite(projectId: string, domain: string, change: { source?: string; ref?: string | null; auth?: ReaderAuthInput }): Promise<Site>;
  removeSite(projectId: string, domain: string): Promise<void>;
}

/** Binds the control-plane operations to the store and clock. */
// size: binds each control operation (a few lines each) to the store and clock; a table of operations
export function createControlOperations(control: ControlStore, clock: Clock): ControlOperations {
  const projectSite = (projectId: string, domain: string): Site => {
    const site = control.sites.find(domain);
    if (!site || site.projectId !== projectId) throw AppError.notFound(`No site ${domain} in this project`);
    return site;
  };
  // Sites in the config file are the operator's declared state; changing them here would be
  // undone by the next start, so the API refuses rather than pretend.
  const storedSite = (projectId: string, domain: string): Site => {
    const site = projectSite(projectId, domain);
    if (site.origin === 'config') throw AppError.conflict(`Site ${site.domain} is declared in the config file; change it there`);
    return site;
  };
  const save = async (
    projectId: string,
    site: { domain: string; source: string; ref: string | null; createdAt?: string; auth?: ReaderAuthSetting },
  ): Promise<Site> => {
    await assertUsableSource(site.source, site.ref);
    await control.sites.upsert({
      domain: site.domain.toLowerCase(),
      source: site.source,
      ref: site.ref,
      projectId,
      createdAt: site.createdAt ?? clock.now().toISOString(),
      ...(site.auth && site.auth.mode !== 'none' ? { auth: site.auth } : {}),
    });
    return projectSite(projectId, site.domain);
  };
  return {
    getProject(projectId) {
      const project = control.projects.find(projectId);
      if (!project) throw AppError.notFound('Project not found');
      return project;
    },
    async updateProject(projectId, change) {
      const updated = await control.projects.update(projectId, change);
      if (!updated) throw AppError.notFound('Project not found');
      return updated;
    },
    listKeys: (projectId) => control.keys.list(projectId),
    createKey: (input) => createAdminKey(control, clock, input),
    revokeKey: (projectId, keyId, options) => revokeAdminKey(control, clock, projectId, keyId, options),
    listSites: (projectId) => control.sites.list().filter((s) => s.projectId === projectId),
    async addSite(projectId, input) {
      const existing = control.sites.find(input.domain);
      // Same answer whether the domain is this project's or another's: 409 either way.
      if (existing) throw AppError.conflict(`Site ${input.domain.toLowerCase()} already exists`);
      return save(projectId, {
        domain: input.domain,
        source: input.source,
        ref: input.ref ?? null,
        ...(input.auth ? { auth: readerAuthSetting(input.auth) } : {}),
      });
    },
    async updateSite(projectId, domain, change) {
      const site = storedSite(projectId, domain);
      return save(projectId, {
        domain: site.domain,
        source: change.source ?? site.source,
        ref: change.ref === undefined ? site.ref : change.ref,
        // Left out of a change, the site keeps its sign-in (the stored hash, never re-hashed).
        auth: change.auth === undefined ? site.auth : readerAuthSetting(change.auth),
      });
    },
    async removeSite(projectId, domain) {
      const site = storedSite(projectId, domain);
      await control.sites.remove(site.domain);
    },
  };
}

/**
 * A site must point at something exportable now, not at the first export: an absolute folder
 * that is Mintlify docs (for a git source, at least a folder: the ref is checked on export).
 */
async function assertUsableSource(source: string, ref: string | null): Promise<void> {
  if (!isAbsolute(source)) throw AppError.invalid([{ message: `source: '${source}' must be an absolute path on the appliance` }]);
  const problem = ref
    ? (await stat(source).then(
        (s) => s.isDirectory(),
        () => false,
      ))
      ? null
      : `docs source ${source} is not a folder`
    : await checkDocsSource(source);
  if (problem) throw AppError.invalid([{ message: `source: ${problem}` }]);
}
