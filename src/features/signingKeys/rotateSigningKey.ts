import type { SigningKeyInfo, SigningKeyring } from '../../bundle/SigningKeyring.js';
import type { Clock } from '../../platform/Clock.js';

/**
 * Makes a fresh key the one that signs new links. Links signed by older keys keep working
 * until those keys are retired, so a rotation never breaks a download already handed out.
 */
export async function rotateSigningKey(keyring: SigningKeyring, clock: Clock): Promise<SigningKeyInfo> {
  const key = await keyring.rotate(clock.now());
  return { kid: key.kid, createdAt: key.createdAt, active: true };
}
