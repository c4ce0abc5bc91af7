import type { AccessMap } from '../../platform/access/PageAccess.js';

/** The version of the docs site being served right now. */
export interface ActiveSiteInfo {
  domain: string;
  /** Owner project of the served site (from the site config), null if the domain is unknown here. */
  projectId: string | null;
  version: string;
  /** Page paths of the version, e.g. `/`, `/guides/start` (leading slash, no extension). */
  pagePaths: ReadonlySet<string>;
  /**
   * The version's deployment id and the folder of its files (read-only: the bundle as
   * installed), for features that read export-time data such as the assistant's section chunks.
   * Absent where no installed version backs the info (stand-ins in tests). `access` is the
   * bundle's access map as the version loaded it (null: no page is marked). `filesDir` holds
   * every `_enclave/` file; a served file (a page's Markdown copy) may be in an older version's
   * folder when the version is layered: `pathOf` says where.
   */
  installed?: { id: string; filesDir: string; access: AccessMap | null; pathOf?: (path: string) => string };
}

/** Read access to the live sites for other modules (feedback validates paths with it). */
export interface ActiveSite {
  /** The version serving requests for `host` (a Host header's name, no port); the default site when omitted or not a site of its own. */
  current(host?: string): ActiveSiteInfo | null;
  /** Every site's live version (the default site first). */
  all(): ActiveSiteInfo[];
}
