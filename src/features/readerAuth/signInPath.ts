import { safeReturnTo } from './safeReturnTo.js';

/** Where the reader sign-in page is, on every site's own host. */
export const SIGN_IN_PATH = '/_enclave/auth/sign-in';
/** Where a reader signs out. */
export const SIGN_OUT_PATH = '/_enclave/auth/sign-out';

/** The sign-in page's path for a reader who wanted `returnTo` (kept only when it is a path on the site). */
export function signInPath(returnTo: string): string {
  const back = safeReturnTo(returnTo);
  return back === '/' ? SIGN_IN_PATH : `${SIGN_IN_PATH}?returnTo=${encodeURIComponent(back)}`;
}
