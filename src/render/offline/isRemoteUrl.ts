/** True for a URL that would be fetched from another origin (`https://…`, `http://…`, `//host/…`). */
export function isRemoteUrl(url: string): boolean {
  return /^\s*(?:https?:)?\/\//i.test(url);
}
