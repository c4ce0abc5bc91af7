import type { ActiveReaderAuth } from '../../config/sections/readerAuth.js';

/**
 * What a session is bound to besides its site: the site's sign-in setting as a whole (for a
 * password, its hash), so changing the password or the provider ends every session at once.
 */
export function settingKey(setting: ActiveReaderAuth): string {
  return setting.mode === 'password' ? setting.passwordHash : JSON.stringify(setting);
}
