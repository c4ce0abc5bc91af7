import type { ReaderAuthInput, ReaderAuthSetting } from '../../config/sections/readerAuth.js';
import { hashPassword } from '../../platform/passwordHash.js';

/** A site's reader sign-in as kept, from what the config or an API call gave: a password becomes its scrypt hash. */
export function readerAuthSetting(input: ReaderAuthInput): ReaderAuthSetting {
  if (input.mode !== 'password') return input;
  const passwordHash = input.passwordHash ?? hashPassword(input.password ?? '');
  return { mode: 'password', passwordHash, ...(input.sessionHours ? { sessionHours: input.sessionHours } : {}) };
}
