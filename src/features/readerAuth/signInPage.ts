import { SIGN_IN_FORM_MARK } from '../../platform/access/signInShell.js';

/** What the sign-in page shows besides its form. */
export interface SignInPageOptions {
  siteName: string;
  returnTo: string;
  /** A line above the form (a wrong password, too many tries); plain text. */
  message?: string;
  /** Show the password form (password mode); otherwise a button that starts sign-in again. */
  password: boolean;
  /** The site's themed frame (see signInShells); null: the plain page. */
  shell?: string | null;
}

/** The CSP of the sign-in page: its own inline style, a form posting to itself, nothing else. */
export const SIGN_IN_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The CSP of the themed sign-in page: also the site's own stylesheets, fonts, logo and colour-scheme script. */
export const THEMED_SIGN_IN_PAGE_POLICY =
  "default-src 'none'; style-src 'self' 'unsafe-inline'; font-src 'self'; img-src 'self' data:; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The reader sign-in page: one password field, posting back to itself with where the reader
 * was going. No script, and nothing of the site's pages (their navigation would name pages to
 * someone not yet signed in). In the site's own theme when the live version has a frame for it
 * (`shell`), else styled with the docs theme's neutral palette.
 */
export function signInPage(options: SignInPageOptions): string {
  const message = options.message ? `<p class="message" role="alert">${escapeHtml(options.message)}</p>` : '';
  const form = options.password ? passwordForm(options.returnTo) : retryForm(options.returnTo);
  // The form goes where the export's frame marks it (its own text, so no `$` pattern of replace applies).
  if (options.shell) return options.shell.replace(SIGN_IN_FORM_MARK, () => `${message}\n${form}`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Sign in · ${escapeHtml(options.siteName)}</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 Inter,system-ui,sans-serif;background:#f9fafb;color:#111827}
main{width:min(22rem,90vw);padding:2rem;border:1px solid #e5e7eb;border-radius:1rem;background:#fff}
h1{font-size:1.25rem;margin:0 0 1rem}label{display:block;font-size:.875rem;margin-bottom:.25rem}
input{box-sizing:border-box;width:100%;padding:.5rem .75rem;border:1px solid #d1d5db;border-radius:.5rem;font:inherit}
button{margin-top:1rem;width:100%;padding:.5rem;border:0;border-radius:.5rem;background:#111827;color:#fff;font:inherit;cursor:pointer}
.message{color:#b91c1c;font-size:.875rem}
@media (prefers-color-scheme:dark){body{background:#0b0f19;color:#e5e7eb}main{background:#111827;border-color:#1f2937}input{background:#0b0f19;color:#e5e7eb;border-color:#374151}button{background:#e5e7eb;color:#111827}}
</style></head>
<body><main><h1>Sign in to ${escapeHtml(options.siteName)}</h1>${message}
${form}</main></body></html>
`;
}

function passwordForm(returnTo: string): string {
  return `<form method="post" action="/_enclave/auth/sign-in">
<input type="hidden" name="returnTo" value="${escapeHtml(returnTo)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Sign in</button></form>`;
}

function retryForm(returnTo: string): string {
  return `<form method="get" action="/_enclave/auth/sign-in">
<input type="hidden" name="returnTo" value="${escapeHtml(returnTo)}"><button type="submit">Try again</button></form>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
