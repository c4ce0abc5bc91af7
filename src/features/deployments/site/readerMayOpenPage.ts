import type { LiveSites } from './createSiteHandler.js';
import type { ReaderGate } from './ReaderGate.js';

/** May the reader of a request (its Cookie header) open the page at `path` (`/`, `/guides/start`) of `host`'s live site. */
export type ReaderMayOpen = (host: string, cookieHeader: string | undefined, path: string) => boolean;

/**
 * The reader-access answer for surfaces other than the site handler (feedback): true on a site
 * without sign-in; otherwise what the live version's access map says of the page for the
 * reader the gate recognises (a bundle without a map: any signed-in reader).
 */
export function readerMayOpenPage(sites: LiveSites, gate: ReaderGate | undefined): ReaderMayOpen {
  return (host, cookieHeader, path) => {
    const version = sites.forHost(host).live.version();
    const at = version && gate?.(version.domain, cookieHeader);
    if (!version || !at) return true;
    if (!version.access?.map) return at.reader !== null;
    // `/guides` is the page `guides` or, served from its folder, `guides/index`.
    const page = path === '/' ? 'index' : path.slice(1);
    const key = version.access.map.pages[page] === undefined ? `${page}/index` : page;
    return version.access.mayOpen(key, at.reader);
  };
}
