/** True when an `If-None-Match` list names `etag` (or is `*`); weak comparison as RFC 9110 §13.1.2 asks. */
export function matchesEtag(header: string, etag: string): boolean {
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === etag);
}
