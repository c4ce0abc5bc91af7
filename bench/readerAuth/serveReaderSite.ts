import type { ExecutionContext } from 'ava';
import { createInterface } from 'node:readline';
import type { SiteRequest, SiteRequestHandler } from '../../src/http/SiteRequestHandler.js';
import { hashPassword } from '../../src/platform/passwordHash.js';
import { READER_ACCESS_SITE } from '../../test/readerAuth/readerAccessSite.js';
import { startTestAppliance } from '../../test/helpers/testAppliance.js';
import { renderFilesAndZip } from '../../test/render/renderFixture.js';
import { inMemoryHttp } from './inMemoryHttp.js';

/** The line the child prints once it serves: where, and a signed-in reader's Cookie header. */
export interface ReaderSiteReady {
  url: string;
  cookie: string;
}

/**
 * The child process of bench:reader-auth: renders the reader access fixture, starts an
 * appliance with it live on a site with a password, signs a reader in, prints a ReaderSiteReady
 * line, then answers one JSON line per command line from the parent: `off` / `on` (switch the
 * site's sign-in, as /v1/sites would), `cpu` (this process's CPU time so far, µs), `handler
 * off|on` (the site handler alone, see handlerCost), `http off|on` (the HTTP server fed in
 * memory, see inMemoryHttp), `stop`.
 * It runs apart from the load generator so that the two never share a thread or its CPU time.
 */
export async function serveReaderSite(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const suite = { teardown: (fn: () => Promise<void>) => void cleanups.push(fn) } as unknown as ExecutionContext;
  const { src, zip } = await renderFilesAndZip(suite, READER_ACCESS_SITE);
  const app = await startTestAppliance();
  const site = { domain: 'docs.example.com', source: src, ref: null, projectId: app.projectId, createdAt: new Date().toISOString() };
  const password = 'bench password 1';
  const on = { ...site, auth: { mode: 'password' as const, passwordHash: hashPassword(password) } };
  await app.control.sites.upsert(on);
  await app.features.deployments.activateBundleFile(zip, { source: 'bench' });
  const signIn = await fetch(`${app.url}/_enclave/auth/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password, returnTo: '/' }).toString(),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie.startsWith('enclave_reader=')) throw new Error(`sign-in gave no session cookie (status ${signIn.status})`);
  const ready: ReaderSiteReady = { url: app.url, cookie };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  const handler = app.features.deployments.siteHandler!;
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'stop') break;
    if (line.startsWith('handler ')) {
      const signedIn = line === 'handler on';
      await app.control.sites.upsert(signedIn ? on : site);
      process.stdout.write(`${JSON.stringify({ micros: await handlerCost(handler, signedIn ? cookie : undefined) })}\n`);
      continue;
    }
    if (line.startsWith('http ')) {
      // The whole HTTP server fed in memory (see inMemoryHttp): a warm-up, then the measured run.
      const signedIn = line === 'http on';
      await app.control.sites.upsert(signedIn ? on : site);
      const raw = Buffer.from(`GET /team/notes HTTP/1.1\r\nHost: 127.0.0.1\r\n${signedIn ? `Cookie: ${cookie}\r\n` : ''}\r\n`);
      await inMemoryHttp(app.httpServer, raw, 5_000);
      process.stdout.write(`${JSON.stringify({ micros: await inMemoryHttp(app.httpServer, raw, HTTP_REQUESTS) })}\n`);
      continue;
    }
    if (line === 'off') await app.control.sites.upsert(site);
    else if (line === 'on') await app.control.sites.upsert(on);
    const usage = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpuMicros: usage.user + usage.system })}\n`);
  }
  await app.close();
  for (const fn of cleanups.reverse()) await fn();
  process.exit(0);
}

/** Requests per in-memory HTTP measurement. */
const HTTP_REQUESTS = 50_000;

/** Requests per handlerCost measurement. */
const HANDLER_REQUESTS = 200_000;

/**
 * CPU µs per request of the site handler alone for /team/notes (with `cookie`, if any): called
 * HANDLER_REQUESTS times on a stand-in request whose response only counts its ends, so neither
 * HTTP parsing nor sockets nor the load generator are in the figure, only the code this
 * appliance runs per page view. Promises the handler returns are settled every 1,000 calls.
 */
async function handlerCost(handler: SiteRequestHandler, cookie: string | undefined): Promise<number> {
  let ended = 0;
  const headers: Record<string, string> = { host: '127.0.0.1', 'user-agent': 'bench', ...(cookie ? { cookie } : {}) };
  const request = {
    req: { method: 'GET', url: '/team/notes', headers },
    res: { headersSent: false, writeHead: () => {}, end: () => void ended++, once: () => {}, destroy: () => {} },
    host: '127.0.0.1',
    path: '/team/notes',
    query: '',
    requestId: 'bench',
    address: '127.0.0.1',
  } as unknown as SiteRequest;
  for (let i = 0; i < 2_000; i++) await handler(request); // warm-up: the views are built, the JIT settles
  ended = 0;
  const before = process.cpuUsage();
  for (let i = 1; i <= HANDLER_REQUESTS; i++) {
    const pending = handler(request);
    if (pending && i % 1_000 === 0) await pending;
    else if (i % 1_000 === 0) await new Promise(setImmediate);
  }
  await new Promise(setImmediate);
  const used = process.cpuUsage(before);
  if (ended !== HANDLER_REQUESTS) throw new Error(`${ended} of ${HANDLER_REQUESTS} requests were answered`);
  return (used.user + used.system) / HANDLER_REQUESTS;
}
