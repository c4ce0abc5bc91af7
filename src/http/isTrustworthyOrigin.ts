import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/**
 * Whether a browser treats the page this request asks for as a secure context: it came over
 * TLS (here, or to a trusted proxy that says so in X-Forwarded-Proto), or its host is a loopback
 * name, which browsers trust over plain HTTP. Headers such as Cross-Origin-Opener-Policy are
 * ignored elsewhere, and the browser logs an error on every page saying so.
 */
export function isTrustworthyOrigin(req: IncomingMessage, hostname: string, trustProxy: boolean): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  const forwarded = trustProxy ? req.headers['x-forwarded-proto'] : undefined;
  if (typeof forwarded === 'string' && forwarded.split(',')[0].trim().toLowerCase() === 'https') return true;
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** The header browsers ignore, with a console error, on a page that is not a secure context. */
export const OPENER_POLICY_HEADER = 'Cross-Origin-Opener-Policy';
