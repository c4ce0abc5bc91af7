import type { ReaderGate } from '../../deployments/site/ReaderGate.js';
import type { RetrievalAudience } from '../retrieval/Retriever.js';

/**
 * The audience the site's own panel answers for: on a site with reader sign-in, the reader its
 * session cookie names, through the gate the site handler uses (no valid cookie: the public);
 * every page on an open site. Never groups from the request body: the panel has no key.
 */
export function panelAudience(gate: ReaderGate | undefined, domain: string, cookieHeader: string | undefined): RetrievalAudience {
  const at = gate?.(domain, cookieHeader);
  return at ? at.reader : 'all';
}
