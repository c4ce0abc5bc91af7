/** `scheme://user:password@` — the part of a URL a deploy token hides in. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi;

/**
 * Text with the user/password part of every URL removed. Operators may configure a
 * repository like `https://bot:TOKEN@git.corp/docs.git`; the token must never reach a
 * response, an error message or a log line.
 */
export function redactCredentials(text: string): string {
  return text.replace(URL_USERINFO, '$1');
}
