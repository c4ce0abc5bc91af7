/** Query parameters whose values must never reach a log line. */
const SECRET_PARAMS = /([?&](?:sig|signature|key|token)=)[^&#]*/gi;
/** Admin keys anywhere in a string (they have a fixed, greppable prefix). */
// Assistant keys (`enc_asst_…`) too: they are secrets of their own project, even if embeddable in pages.
const ADMIN_KEY = /enc_(?:asst_)?[0-9A-Za-z]{46}/g;

/** A URL with link signatures and keys replaced by `REDACTED`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1REDACTED').replace(ADMIN_KEY, 'enc_REDACTED');
}

/** Text with any admin key replaced by `enc_REDACTED`. */
export function redactKeys(text: string): string {
  return text.replace(ADMIN_KEY, 'enc_REDACTED');
}
