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

/** The stored line of an event: short keys, since there are millions of them. */
export function eventLine(e: AnalyticsEvent): string {
  if (e.kind === 'view') return `${JSON.stringify({ k: 'v', t: e.at, d: e.domain, r: e.version, p: e.path, a: e.ai ? 1 : 0, h: e.visitor })}\n`;
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
  if (o.k === 'v') return { kind: 'view', at: num('t'), domain: str('d'), version: str('r'), path: str('p'), ai: o.a === 1, visitor: str('h') };
  if (o.k === 's') return { kind: 'search', at: num('t'), domain: str('d'), query: str('q'), results: num('n') };
  if (o.k === 'c') return { kind: 'click', at: num('t'), domain: str('d'), query: str('q'), path: str('p') };
  throw new Error('unknown event kind');
}
