import type { SigningKeyring } from '../../platform/SigningKeyring.js';
import { AppError } from '../../platform/AppError.js';

/**
 * Retires a signing key: every link it signed is refused (403) from now on — how a leaked
 * link is revoked. The active key is refused (409; rotate first), an unknown one is a 404.
 */
export async function retireSigningKey(keyring: SigningKeyring, kid: string): Promise<void> {
  const outcome = await keyring.retire(kid);
  if (outcome === 'active') throw AppError.conflict(`${kid} is the active signing key; rotate first, then retire it`);
  if (outcome === 'unknown') throw AppError.notFound('No such signing key');
}
