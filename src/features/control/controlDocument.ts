import type { ReaderAuthSetting } from '../../config/sections/readerAuth.js';
import { join } from 'node:path';
import { JsonStore } from '../../platform/store/JsonStore.js';

/** A project: the owner of keys, sites, jobs and feedback. */
export interface ProjectRecord {
  id: string;
  name: string;
  features: { staticExport: boolean };
  createdAt: string;
}

/** An admin key as stored: never the key itself, only its SHA-256 and last four characters. */
export interface AdminKeyRecord {
  id: string;
  projectId: string;
  name: string;
  scope: 'read' | 'write';
  /** `assistant`: may call only the assistant endpoints of its project's sites; absent on keys stored before kinds existed (admin). */
  kind?: 'admin' | 'assistant';
  hash: string;
  last4: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /**
   * The key that created this one through the API (`key_local_cli` for the local CLI key);
   * null or absent for keys made on the store (`enclave init`, the CLI with no server) and
   * for keys stored before creators were recorded.
   */
  createdBy?: string | null;
}

/** A site added at run time (the CLI or first start); sites in the config file are not stored. */
export interface SiteRecord {
  domain: string;
  source: string;
  ref: string | null;
  projectId: string;
  createdAt: string;
  /** Reader sign-in (absent: none); a password only as its scrypt hash. */
  auth?: ReaderAuthSetting;
}

/** The control-plane document `control.json`. */
export interface ControlData {
  schemaVersion: number;
  defaultProjectId: string | null;
  projects: ProjectRecord[];
  adminKeys: AdminKeyRecord[];
  sites: SiteRecord[];
}

/** Current schema version of control.json. */
export const CONTROL_SCHEMA_VERSION = 1;

/** Opens the control-plane document in `dataDir`. */
export function openControlDocument(dataDir: string): Promise<JsonStore<ControlData>> {
  return JsonStore.open<ControlData>({
    path: join(dataDir, 'control.json'),
    schemaVersion: CONTROL_SCHEMA_VERSION,
    defaults: () => ({ schemaVersion: CONTROL_SCHEMA_VERSION, defaultProjectId: null, projects: [], adminKeys: [], sites: [] }),
    // Version 0 is a file written before versioning existed: nothing to change but the number.
    migrations: { 0: () => {} },
  });
}
