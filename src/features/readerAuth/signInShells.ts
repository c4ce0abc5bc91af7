import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SIGN_IN_FORM_MARK, SIGN_IN_SHELL_PATH } from '../../platform/access/signInShell.js';
import type { ActiveSite } from '../deployments/ActiveSite.js';

/** Versions whose frame is remembered; a handful of sites each with a version or two live. */
const MAX_REMEMBERED = 64;

/**
 * The sign-in page's frame in the theme of the version live on `host` (the export's
 * `_enclave/sign-in.html`), read once per deployed version; null for a bundle from before it
 * (the plain page stands in) or one whose frame has no place for the form.
 */
export function signInShells(activeSite: ActiveSite): (host: string) => Promise<string | null> {
  let byVersion = new Map<string, Promise<string | null>>();
  return (host) => {
    const installed = activeSite.current(host)?.installed;
    if (!installed) return Promise.resolve(null);
    let shell = byVersion.get(installed.id);
    if (!shell) {
      if (byVersion.size >= MAX_REMEMBERED) byVersion = new Map();
      shell = readFile(join(installed.filesDir, SIGN_IN_SHELL_PATH), 'utf8').then(
        (html) => (html.includes(SIGN_IN_FORM_MARK) ? html : null),
        () => null,
      );
      byVersion.set(installed.id, shell);
    }
    return shell;
  };
}
