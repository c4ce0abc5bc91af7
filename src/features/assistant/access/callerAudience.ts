import type { ReaderGate } from '../../deployments/site/ReaderGate.js';
import type { RetrievalAudience } from '../retrieval/Retriever.js';

/**
 * The audience an assistant-key caller retrieves for on `domain`, from the `groups` they send
 * (the hosted API's rule): with groups, a signed-in reader holding them (public pages, pages for
 * any signed-in reader, and group pages sharing one of them); without, on a site with reader
 * sign-in, the public only, and on an open site every page. The key proves the caller may use
 * the site, not who the reader is: groups are what the caller vouches for.
 */
export function callerAudience(gate: ReaderGate | undefined, domain: string, groups: readonly string[] | undefined): RetrievalAudience {
  if (groups) return { groups };
  return gate?.(domain, undefined) ? null : 'all';
}
