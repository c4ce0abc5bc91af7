/** The reader session cookie's name. */
export const READER_COOKIE = 'enclave_reader';

/** The reader session cookie's value in a Cookie header, or undefined. */
export function readerCookieValue(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === READER_COOKIE) return pair.slice(at + 1).trim();
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
