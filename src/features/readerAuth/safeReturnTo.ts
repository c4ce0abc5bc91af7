/**
 * A place to send a reader back to after sign-in: `wanted` when it is a path on this same site
 * (`/guides/start?x=1#part`), else `/`. Absolute URLs, scheme-relative `//host`, backslashes
 * (which browsers read as slashes), control characters and the appliance's own paths are refused,
 * so sign-in can never redirect off-site (no open redirect).
 */
export function safeReturnTo(wanted: unknown): string {
  if (typeof wanted !== 'string' || wanted.length === 0 || wanted.length > 2048) return '/';
  if (!wanted.startsWith('/') || wanted.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(wanted)) return '/';
  let url: URL;
  try {
    url = new URL(wanted, 'http://site.invalid');
  } catch {
    return '/';
  }
  if (url.origin !== 'http://site.invalid' || url.pathname.startsWith('/_enclave/')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
