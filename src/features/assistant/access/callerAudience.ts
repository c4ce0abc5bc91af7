import type { ReaderGate } from '../../deployments/site/ReaderGate.js';
import type { RetrievalAudience } from '../retrieval/Retriever.js';

/**
 * The audience an assistant-key caller retrieves for on `domain`, from the `groups` they send
 * (the hosted API's rule: public pages always, a page limited to groups only when the caller
 * shares one). With groups: a signed-in reader holding them. Without: on a site with reader
 * sign-in, the public only; on an open site, a reader without groups (every page but those
 * limited to groups). The key proves the caller may use the site, not who the reader is: the
 * groups are taken on the caller's word.
 */
export function callerAudience(gate: ReaderGate | undefined, domain: string, groups: readonly string[] | undefined): RetrievalAudience {
  if (groups) return { groups };
  return gate?.(domain, undefined) ? null : { groups: [] };
}
