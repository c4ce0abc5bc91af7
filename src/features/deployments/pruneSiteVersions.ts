import type { Logger } from 'pino';
import { collapseAndRetire } from './collapseHolders.js';
import type { DeploymentRepository } from './DeploymentRepository.js';
import { byActivationDesc } from './deploymentStore.js';
import type { SiteVersion } from './SiteVersion.js';
import type { VerifiedVariants } from './VerifiedVariants.js';

/** What retention works on: one deployer's records, loaded versions and folder. */
export interface RetentionDeps {
  deployments: DeploymentRepository;
  versions: Map<string, SiteVersion>;
  versionsDir: string;
  logger: Logger;
  /** Points the live site at the versions now recorded (after a table is replaced or a version removed). */
  publish: () => void;
  /** Variants the deployer made or checked: a reloaded table serves them at once. */
  verified?: VerifiedVariants;
}

/** Keeps the newest `keepVersions` versions (the active one always), records the rest removed and retires them. */
export async function pruneSiteVersions(deps: RetentionDeps, keepVersions: number, now: string): Promise<void> {
  const onDisk = deps.deployments.onDisk().sort(byActivationDesc);
  const keep = new Set(onDisk.slice(0, keepVersions).map((d) => d.id));
  const active = deps.deployments.active();
  if (active) keep.add(active.id);
  const doomed = new Set(onDisk.filter((d) => !keep.has(d.id)).map((d) => d.id));
  if (doomed.size === 0) return;
  await deps.deployments.markRemoved(doomed, now);
  deps.publish();
  await collapseVersions(deps, doomed);
}

/** Flattens layered versions off unkept ones and deletes what no kept version reads (see collapseAndRetire). */
export async function collapseVersions(deps: RetentionDeps, doomed: Iterable<string>): Promise<void> {
  const { versions, versionsDir, logger, publish, verified } = deps;
  await collapseAndRetire(
    { versions, versionsDir, logger, publish, verified, onDisk: new Set(deps.deployments.onDisk().map((d) => d.id)) },
    doomed,
  );
}
