import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../platform/Clock.js';
import type { ControlStore } from '../../features/control/ControlStore.js';
import { SigningKeyring, keyringPath } from '../../platform/SigningKeyring.js';
import { createInitialAdminKey } from './initialAdminKey.js';
import { createProject } from '../../features/control/createProject.js';
import { sampleDocsDir, SAMPLE_DOMAIN } from './sampleDocs.js';

/** What first start created; `adminKey` is shown once and never again. */
export interface BootstrapResult {
  projectId: string;
  adminKey: string | null;
  keyring: SigningKeyring;
}

/** Creates the data directory layout (private to this user). */
export async function prepareDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await mkdir(join(dataDir, 'secrets'), { recursive: true, mode: 0o700 });
}

/**
 * First start: a default project, the signing secret, the sample docs site and one admin key
 * (unless deferred, see createInitialAdminKey).
 * Anything that already exists is kept. A missing signing secret in a store that already has
 * projects is an error unless `recreateSigningKey` (the `enclave init` recovery) is set.
 */
export async function bootstrapDataDir(
  dataDir: string,
  control: ControlStore,
  clock: Clock,
  options: { recreateSigningKey?: boolean; deferAdminKey?: boolean } = {},
): Promise<BootstrapResult> {
  const firstStart = control.projects.list().length === 0;
  const projectId = control.projects.defaultProjectId() ?? (await createProject(control, clock, 'Default project')).id;

  const keyring =
    existsSync(keyringPath(dataDir)) || (!firstStart && !options.recreateSigningKey)
      ? SigningKeyring.load(dataDir)
      : await SigningKeyring.create(dataDir, clock.now());

  if (!control.sites.find(SAMPLE_DOMAIN)) {
    await control.sites.upsert({
      domain: SAMPLE_DOMAIN,
      source: sampleDocsDir,
      ref: null,
      projectId,
      createdAt: clock.now().toISOString(),
    });
  }

  // The server creates the key only once it listens (deferAdminKey): a key made before a bind
  // that fails would never be printed.
  const adminKey = options.deferAdminKey ? null : await createInitialAdminKey(dataDir, control, clock, projectId);
  return { projectId, adminKey, keyring };
}
