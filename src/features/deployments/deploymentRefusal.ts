import { BundleRefusedError } from '../../bundle/BundleRefusedError.js';
import { AppError } from '../../platform/AppError.js';
import { isDiskFull } from '../../platform/store/isDiskFull.js';

/** How a failed deployment is recorded and answered. */
export interface DeploymentRefusal {
  /** Recorded on the deployment and shown to clients: never a path or an internal message. */
  reason: string;
  /** What the deployment's caller gets. */
  error: Error;
  /** Not a refusal of the bundle itself: the cause goes to the log in full. */
  internal: boolean;
}

/** Classifies what stopped a deployment: the bundle refused, a full volume (507), or an internal error. */
export function deploymentRefusal(err: unknown): DeploymentRefusal {
  if (err instanceof BundleRefusedError) return { reason: err.reason, error: err, internal: false };
  if (isDiskFull(err))
    return {
      reason: 'the data volume is full',
      error: AppError.insufficientStorage('The data volume is full; the bundle was not activated'),
      internal: true,
    };
  const reason = 'internal error (see the server log)';
  return { reason, error: new BundleRefusedError(reason), internal: true };
}
