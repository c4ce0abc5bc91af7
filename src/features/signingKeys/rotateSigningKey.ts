import type { SigningKeyInfo, SigningKeyring } from '../../platform/SigningKeyring.js';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';

/** Keys that may verify links at once: enough for any rotation schedule, bounded against a loop of rotations. */
export const MAX_SIGNING_KEYS = 32;

/**
 * Makes a fresh key the one that signs new links. Links signed by older keys keep working
 * until those keys are retired, so a rotation never breaks a download already handed out.
 */
export async function rotateSigningKey(keyring: SigningKeyring, clock: Clock): Promise<SigningKeyInfo> {
  if (keyring.list().length >= MAX_SIGNING_KEYS)
    throw AppError.conflict(`${MAX_SIGNING_KEYS} signing keys already verify links; retire old ones first`);
  const key = await keyring.rotate(clock.now());
  return { kid: key.kid, createdAt: key.createdAt, active: true };
}
