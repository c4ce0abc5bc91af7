/** One page served to a counted client. */
export interface ViewEvent {
  kind: 'view';
  at: number;
  domain: string;
  version: string;
  path: string;
  ai: boolean;
  /** Salted daily hash of address + user agent (see VisitorSalt). */
  visitor: string;
}

/** A settled query of the site's search box and how many results it showed. */
export interface SearchEvent {
  kind: 'search';
  at: number;
  domain: string;
  query: string;
  results: number;
}

/** A search result the reader opened. */
export interface ClickEvent {
  kind: 'click';
  at: number;
  domain: string;
  query: string;
  path: string;
}

/** What the analytics log stores. */
export type AnalyticsEvent = ViewEvent | SearchEvent | ClickEvent;

const HEX = /^[0-9a-f]{1,64}$/;

/** JSON string literals of the few domains, versions and paths views repeat, so each is escaped once. */
const quoted = new Map<string, string>();
function quote(text: string): string {
  let q = quoted.get(text);
  if (q === undefined) {
    q = JSON.stringify(text);
    if (quoted.size >= 10_000) quoted.clear();
    quoted.set(text, q);
  }
  return q;
}

/** The stored line of an event: short keys, since there are millions of them. */
export function eventLine(e: AnalyticsEvent): string {
  // Views are most of the traffic and are written while pages are served: built from cached
  // literals (the visitor id is hex) instead of a JSON.stringify of a fresh object each time.
  if (e.kind === 'view')
    return `{"k":"v","t":${e.at},"d":${quote(e.domain)},"r":${quote(e.version)},"p":${quote(e.path)},"a":${e.ai ? 1 : 0},"h":${HEX.test(e.visitor) ? `"${e.visitor}"` : JSON.stringify(e.visitor)}}\n`;
  if (e.kind === 'search') return `${JSON.stringify({ k: 's', t: e.at, d: e.domain, q: e.query, n: e.results })}\n`;
  return `${JSON.stringify({ k: 'c', t: e.at, d: e.domain, q: e.query, p: e.path })}\n`;
}

/** Parses a stored line back; throws on anything that isn't one. */
export function parseEventLine(text: string): AnalyticsEvent {
  const o = JSON.parse(text) as Record<string, unknown>;
  const str = (k: string) => {
    if (typeof o[k] !== 'string') throw new Error(`field ${k} is not a string`);
    return o[k] as string;
  };
  const num = (k: string) => {
    if (typeof o[k] !== 'number') throw new Error(`field ${k} is not a number`);
    return o[k] as number;
  };
  if (o.k === 'v')
    return { kind: 'view', at: num('t'), domain: str('d'), version: str('r'), path: str('p'), ai: o.a === 1, visitor: str('h') };
  if (o.k === 's') return { kind: 'search', at: num('t'), domain: str('d'), query: str('q'), results: num('n') };
  if (o.k === 'c') return { kind: 'click', at: num('t'), domain: str('d'), query: str('q'), path: str('p') };
  throw new Error('unknown event kind');
}
