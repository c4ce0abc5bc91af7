import { join } from 'node:path';
import { JsonStore } from '../../platform/store/JsonStore.js';

/** Where a deployment request came from. */
export type DeploymentOrigin = 'config' | 'api' | 'export' | 'reexport';

/**
 * One attempt to deploy a bundle, and (when it succeeded) the extracted version it produced.
 * `running` → `failed` | `unchanged` | `active`; `active` ↔ `kept` (switch, rollback);
 * `kept` → `removed` when pruned.
 */
export interface DeploymentRecord {
  id: string;
  status: 'running' | 'active' | 'kept' | 'removed' | 'failed' | 'unchanged';
  origin: DeploymentOrigin;
  /** The bundle URL or path, with any link signature redacted. */
  source: string;
  pin: string | null;
  version: string | null;
  domain: string | null;
  jobId: string | null;
  bundleSha256: string | null;
  bundleBytes: number | null;
  fileCount: number | null;
  extractedBytes: number | null;
  requestedAt: string;
  finishedAt: string | null;
  activatedAt: string | null;
  error: string | null;
}

/** Something that happened to the live site, for the history view. */
export interface DeploymentEvent {
  at: string;
  kind: 'activated' | 'rolled_back' | 'refused' | 'removed' | 'unchanged';
  deploymentId: string;
  version: string | null;
  detail: string | null;
}

/** `deployments.json`. */
export interface DeploymentsData {
  schemaVersion: number;
  activeId: string | null;
  deployments: DeploymentRecord[];
  events: DeploymentEvent[];
  /** The last failure since the last successful activation (drives `degraded`). */
  lastError: { at: string; source: string; reason: string } | null;
  /** SHA-256 of the bundle the config's bundleUrl delivered last, so a restart doesn't undo an operator's rollback. */
  configBundleSha256: string | null;
  /** Per re-exported domain: the source hash of the last export. */
  reexports: Record<string, { sourceHash: string; at: string; jobId: string; version: string }>;
}

/** Current schema version of deployments.json. */
export const DEPLOYMENTS_SCHEMA_VERSION = 1;

/** Opens `deployments.json` in the data directory. */
export function openDeploymentStore(dataDir: string): Promise<JsonStore<DeploymentsData>> {
  return JsonStore.open<DeploymentsData>({
    path: join(dataDir, 'deployments.json'),
    schemaVersion: DEPLOYMENTS_SCHEMA_VERSION,
    defaults: () => ({ schemaVersion: DEPLOYMENTS_SCHEMA_VERSION, activeId: null, deployments: [], events: [], lastError: null, configBundleSha256: null, reexports: {} }),
  });
}

const MAX_FINISHED_RECORDS = 50;
const MAX_EVENTS = 100;

/** Sort order for versions: most recently activated first. */
export function byActivationDesc(a: DeploymentRecord, b: DeploymentRecord): number {
  return (b.activatedAt ?? '').localeCompare(a.activatedAt ?? '');
}

/** Appends a history event, keeping the newest MAX_EVENTS. */
export function pushEvent(d: DeploymentsData, event: DeploymentEvent): void {
  d.events.push(event);
  if (d.events.length > MAX_EVENTS) d.events.splice(0, d.events.length - MAX_EVENTS);
}

/** Keeps every record of a version on disk (or running) plus the newest finished ones. */
export function trimRecords(d: DeploymentsData): void {
  let finished = 0;
  d.deployments = d.deployments.filter((r) => r.status === 'active' || r.status === 'kept' || r.status === 'running' || ++finished <= MAX_FINISHED_RECORDS);
}
