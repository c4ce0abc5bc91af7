/** The reader session cookie's name. */
export const READER_COOKIE = 'enclave_reader';

/**
 * The reader session cookie's value in a Cookie header, or undefined: the first `name=value`
 * pair (split at `;`, name and value trimmed) whose name is READER_COOKIE. It runs on every
 * request to a site with sign-in, so it looks for the name instead of splitting the header.
 */
export function readerCookieValue(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (let at = header.indexOf(READER_COOKIE); at >= 0; at = header.indexOf(READER_COOKIE, at + 1)) {
    const start = header.lastIndexOf(';', at - 1) + 1;
    const eq = header.indexOf('=', at);
    const end = header.indexOf(';', at);
    // A match inside another pair's value, or a pair without '=', is no name.
    if (eq < 0 || (end >= 0 && end < eq) || header.slice(start, eq).trim() !== READER_COOKIE) continue;
    return header.slice(eq + 1, end < 0 ? undefined : end).trim();
  }
  return undefined;
}

/**
 * A Set-Cookie value for the session: HttpOnly (no page script reads it), SameSite=Lax (not
 * sent on cross-site subrequests or posts), no Domain (the site's own host only), Secure when
 * the site is served over https, and expiring with the session (`maxAgeSeconds` 0 clears it).
 */
export function readerSetCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${READER_COOKIE}=${value}; Path=/; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
