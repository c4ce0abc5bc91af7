import type { Logger } from 'pino';
import type { FetchedBundle } from '../../bundle/fetch/fetchBundle.js';
import type { DeploymentRecord } from './deploymentStore.js';
import type { DeploymentRepository } from './DeploymentRepository.js';
import { deploymentRefusal } from './deploymentRefusal.js';

/** A deployment that was refused: its record, the bundle if it was fetched, and why. */
export interface Refusal {
  record: DeploymentRecord;
  fetched: FetchedBundle | null;
  err: unknown;
  at: string;
}

/** Records a refused deployment (the live site is unchanged) and returns the error to throw. */
export async function recordRefusal(logger: Logger, deployments: DeploymentRepository, refusal: Refusal): Promise<Error> {
  const { record, fetched, err } = refusal;
  const { reason, error, internal } = deploymentRefusal(err);
  logger.warn(
    { deploymentId: record.id, source: record.source, reason, ...(internal ? { err } : {}) },
    `bundle refused, the live site is unchanged: ${reason}`,
  );
  await deployments
    .fail(record.id, { reason, bundleSha256: fetched?.sha256 ?? null, bundleBytes: fetched?.sizeBytes ?? null }, refusal.at)
    .catch((storeErr) => logger.error({ err: storeErr }, 'could not record the failed deployment'));
  return error;
}
