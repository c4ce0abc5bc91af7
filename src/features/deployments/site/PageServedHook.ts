/** A file of the live site that was just served with 200 or 304 to a GET. */
export interface ServedPage {
  domain: string;
  version: string;
  /** Bundle-relative file (`guides/start.html`, `guides/start.md`, `llms.txt`). */
  file: string;
  userAgent: string | undefined;
  /** Client address (proxy-aware when server.trustProxy is on). */
  address: string;
}

/**
 * Told about every file served, after its response is set up; it must not block or throw (the
 * analytics feature counts page views here, so views are counted with JavaScript off).
 */
export type PageServedHook = (page: ServedPage) => void;
