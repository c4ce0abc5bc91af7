import type { ReaderAudience } from '../../../platform/access/mayAudienceSee.js';

/**
 * The site handler's port to reader sign-in (app/ wires the readerAuth feature to it): for the
 * site whose bundle names `domain`, null when the site is open to all, else who the request's
 * cookies say the reader is (`reader` null: not signed in) and where to send them to sign in.
 */
export type ReaderGate = (domain: string, cookieHeader: string | undefined) => ReaderAtGate | null;

/** A request to a site with reader sign-in. */
export interface ReaderAtGate {
  reader: ReaderAudience;
  /** The sign-in page's path for a reader who wanted `returnTo` (a path on the site). */
  signInPath(returnTo: string): string;
}
