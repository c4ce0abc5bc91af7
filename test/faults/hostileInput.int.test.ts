// Hostile-input tables: path traversal in every path parameter and in the site server, header
// injection through every value the server echoes, oversized and deeply nested JSON on every
// route that takes a body. Each row asserts the status and that nothing answered 5xx.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { signBundleLink } from '../../src/bundle/links/bundleLinks.js';
import { keyringPath, SigningKeyring } from '../../src/platform/SigningKeyring.js';
import { writeBundle } from '../deploy/helpers/testBundles.js';
import { exportToBundle, makeTinySite } from '../export/exportTestHelpers.js';
import { makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let app: TestAppliance;
/** Values that fill path parameters not under attack: real objects of this appliance. */
let real: Record<string, string>;
let bundleFile: string;
/** Text that must never appear in an answer: the signing secret and store internals. */
let secrets: string[];
/** `bearer`: the key a request to the operation carries (an assistant key for the search, page and MCP routes), '' for none. */
let operations: { method: string; path: string; secured: boolean; bearer: string; hasBody: boolean }[];

test.before(async () => {
  const site = await makeTinySite(2);
  app = await startTestAppliance({
    overrides: {
      sites: [
        { domain: 'tiny.test', source: site },
        { domain: 'docs.test.internal', source: site },
      ],
      feedback: { perClientPerMinute: 100_000, perPagePerMinute: 100_000, globalPerMinute: 100_000 },
      analytics: { requestsPerHour: 100_000 },
      assistant: { messagesPerAddressPerMinute: 100_000, messagesPerKeyPerMinute: 100_000, messagesGlobalPerMinute: 100_000 },
    },
  });
  const { job } = await exportToBundle(app, 'tiny.test');
  bundleFile = app.features.exports.jobs.find(job.jobId)!.bundle!.file;
  const zip = join(await makeTempDir('enclave-hostile-'), 'v1.zip');
  await writeBundle(zip, 'v1');
  const deployed = (await (await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: zip } })).json()) as { id: string };
  const fb = (await (
    await fetch(`${app.url}/_enclave/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ source: 'thumbs_only', path: '/guides/start', helpful: true }),
    })
  ).json()) as { id: string };
  real = {
    projectId: app.projectId,
    jobId: job.jobId,
    file: bundleFile,
    deploymentId: deployed.id,
    feedbackId: fb.id,
    agentJobId: 'aj_0123456789abcdef',
    domain: 'tiny.test',
  };
  const ring = JSON.parse(readFileSync(keyringPath(app.dataDir), 'utf8')) as { keys: { secret: string }[] };
  secrets = [...ring.keys.map((k) => k.secret), '"schemaVersion"', 'root:x:0:0', '"keyHash"', 'secret dotfile'];
  const doc = (await (await app.api('/openapi.json', { key: null })).json()) as {
    paths: Record<string, Record<string, { security: Record<string, unknown>[]; requestBody?: unknown }>>;
  };
  const made = await app.api('/v1/keys', { method: 'POST', json: { name: 'hostile', kind: 'assistant' } });
  const assistantKey = ((await made.json()) as { key: string }).key;
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      secured: op.security.length > 0,
      bearer: op.security.length === 0 ? '' : 'assistantKey' in op.security[0] ? assistantKey : app.key,
      hasBody: Boolean(op.requestBody),
    })),
  );
});
test.after.always(() => app?.close());

/** The value a parameter gets when it is not the one under attack. */
function fill(path: string, name: string): string {
  if (name === 'id')
    return path.startsWith('/v1/deployments') ? real.deploymentId : path.startsWith('/v2/') ? real.agentJobId : real.feedbackId;
  return real[name] ?? 'x';
}

/** A request sent byte for byte as given (fetch would normalise `..`, backslashes and encodings). */
function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: init.method ?? 'GET', headers: init.headers, timeout: 15_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in 15 s: ${path}`)));
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Writes `bytes` on a fresh socket and returns the parsed answer (the server closes after it). */
function rawSocket(bytes: Buffer): Promise<RawResponse> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head, ...rest] = text.split('\r\n\r\n');
      const lines = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0])?.[1] ?? 0), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

function leaks(body: string): string[] {
  return secrets.filter((s) => body.includes(s));
}

/** Path-parameter payloads as they appear on the wire. */
const TRAVERSAL = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '%2e.',
  '%252e%252e',
  '%25252e%25252e',
  '..%2f..%2fcontrol.json',
  '%2e%2e%2f%2e%2e%2fsecrets%2fsigning-keys.json',
  '..%252f..%252fcontrol.json',
  '..\\..\\control.json',
  '..%5c..%5ccontrol.json',
  '%5c..%5c..%5csecrets',
  '%00',
  'x%00.json',
  '..%00',
  '%ef%bc%8e%ef%bc%8e',
  '%ef%bc%8e%ef%bc%8e%ef%bc%8fcontrol.json',
  '%c0%ae%c0%ae',
  '%c0%ae%c0%ae%c0%afcontrol.json',
  '%e0%80%ae%e0%80%ae',
  '%e2%80%a5',
  '%c0%2e',
  '....%2f%2f....%2f%2fcontrol.json',
  '%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
];

test('path traversal in every path parameter of every route: 4xx, never 5xx, never a file from disk', async (t) => {
  const statuses = new Map<number, number>();
  let rows = 0;
  for (const op of operations) {
    const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const target of names) {
      for (const payload of TRAVERSAL) {
        let path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === target ? payload : encodeURIComponent(fill(op.path, name)),
        );
        if (op.path.startsWith('/bundles/')) path += '?expires=9999999999&kid=k0&sig=AAAA';
        const hasBody = op.hasBody && op.method !== 'GET';
        const res = await raw(path, {
          method: op.method,
          headers: {
            ...(op.bearer ? { Authorization: `Bearer ${op.bearer}` } : {}),
            ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
          },
          body: hasBody ? '{}' : undefined,
        });
        rows++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const label = `${op.method} ${op.path} {${target}}=${payload} → ${res.status}`;
        t.true(res.status >= 400 && res.status < 500, label);
        t.deepEqual(leaks(res.body), [], label);
        if (String(res.headers['content-type']).includes('json'))
          t.is(typeof (JSON.parse(res.body) as { error: unknown }).error, 'string', label);
      }
    }
  }
  t.true(rows >= 150, `${rows} rows`);
  t.log(`${rows} traversal requests over ${operations.length} operations; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
});

test('path traversal into the site server (every encoding): 400/404 only, no file outside the live version, no dotfile, no metadata', async (t) => {
  const templates = [
    (p: string) => `/${p}`,
    (p: string) => `/${p}/control.json`,
    (p: string) => `/${p}/${p}/${p}/${p}/${p}/control.json`,
    (p: string) => `/guides/${p}/${p}/secrets/signing-keys.json`,
    (p: string) => `/${p}/.hidden`,
    (p: string) => `/guides/${p}/index.html`,
  ];
  const extra = [
    '/%5f%65nclave/manifest.json',
    '/%2ehidden',
    '/guides/..%2f.hidden',
    '/_enclave%2fmanifest.json',
    '/%5c%2e%2e%5ccontrol.json',
    '/\\..\\..\\control.json',
    '/..;/control.json',
    '/%u002e%u002e/control.json',
  ];
  const statuses = new Map<number, number>();
  let rows = 0;
  for (const path of [...TRAVERSAL.flatMap((p) => templates.map((make) => make(p))), ...extra]) {
    const res = await raw(path);
    rows++;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    t.true(res.status === 400 || res.status === 404, `${path} → ${res.status}`);
    t.deepEqual(leaks(res.body), [], path);
  }
  t.is((await raw('/guides/start')).status, 200, 'the site itself still answers');
  t.log(`${rows} site traversal requests; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
});

/** Response headers that an injected CRLF would have produced. */
function injected(res: RawResponse): string[] {
  return Object.keys(res.headers).filter((h) => h === 'set-cookie' || h === 'x-injected' || h === 'evil');
}

test('header injection through X-Request-Id: only safe ids are echoed; CR/LF, obs-fold, latin-1 and long values never reach a header', async (t) => {
  const rows: [string, Buffer, boolean][] = [
    ['safe id', Buffer.from('ok-id_1.2'), true],
    ['encoded CRLF', Buffer.from('abc%0d%0aSet-Cookie:%20evil=1'), false],
    ['obs-fold', Buffer.from('abc\r\n Set-Cookie: evil=1'), false],
    ['bare LF', Buffer.from('abc\nX-Injected: 1'), false],
    ['latin-1 bytes', Buffer.from([0x61, 0xff, 0xfe, 0x80]), false],
    ['65 characters', Buffer.from('a'.repeat(65)), false],
    ['quotes and markup', Buffer.from('a b"c<script>'), false],
    ['empty', Buffer.from(''), false],
  ];
  for (const path of ['/_enclave/health', `/v1/projects/${app.projectId}`, '/guides/start', '/no/such/page']) {
    for (const [name, value, echoed] of rows) {
      const res = await rawSocket(
        Buffer.concat([
          Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${app.key}\r\nConnection: close\r\nX-Request-Id: `),
          value,
          Buffer.from('\r\n\r\n'),
        ]),
      );
      const label = `${path} ${name} → ${res.status}`;
      t.true(res.status > 0 && res.status < 500, label);
      t.deepEqual(injected(res), [], label);
      if (res.status === 400 && !res.headers['x-request-id']) continue; // refused by the HTTP parser itself
      if (echoed) t.is(res.headers['x-request-id'], value.toString('latin1'), label);
      else t.regex(String(res.headers['x-request-id'] ?? ''), /^[0-9a-f]{16}$/, `${label}: a fresh id instead`);
    }
  }
});

test('header injection through other echoed values: redirects, Content-Disposition, CORS origin, Host in signed links', async (t) => {
  // Site redirects keep the query string: encoded CR/LF stays encoded, raw bytes never split a header.
  const redirect = await raw('/guides?%0d%0aSet-Cookie:%20evil=1');
  t.is(redirect.status, 301);
  t.is(redirect.headers.location, '/guides/?%0d%0aSet-Cookie:%20evil=1');
  t.deepEqual(injected(redirect), []);
  const rawQuery = await rawSocket(
    Buffer.from('GET /guides?a="<x>\xff HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 'latin1'),
  );
  t.true(rawQuery.status === 301 || rawQuery.status === 400, `raw bytes in the query → ${rawQuery.status}`);
  t.deepEqual(injected(rawQuery), []);

  // Content-Disposition carries the server's own file name, never the URL's.
  const link = (await (await app.api(`/v1/static-export/jobs/${real.jobId}/bundle`, { method: 'POST' })).json()) as { bundleUrl: string };
  const download = await fetch(link.bundleUrl, { method: 'HEAD' });
  t.is(download.status, 200);
  t.regex(download.headers.get('content-disposition') ?? '', /^attachment; filename="[A-Za-z0-9._-]+"$/);
  const ring = SigningKeyring.load(app.dataDir);
  for (const file of ['evil"\r\nSet-Cookie: x=1.zip', "a\";filename*=UTF-8''evil.sh", '../../control.json']) {
    // A correctly signed link for a hostile name (as if the secret had signed it) still only finds files by record.
    const signed = signBundleLink(ring, { jobId: real.jobId, file }, new Date(), 600);
    const res = await raw(
      `/bundles/${real.jobId}/${encodeURIComponent(file)}?${new URLSearchParams({ expires: String(signed.expires), kid: signed.kid, sig: signed.sig })}`,
    );
    t.is(res.status, 404, `${file} → ${res.status}`);
    t.is(res.headers['content-disposition'], undefined);
    t.deepEqual(injected(res), []);
  }

  // CORS: an origin is echoed only when configured; anything else gets no CORS header at all.
  for (const origin of ['http://evil.example', 'null', 'http://127.0.0.1.evil.example', `${app.url}.evil`]) {
    const pre = await raw('/_enclave/feedback', {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
    });
    t.is(pre.headers['access-control-allow-origin'], undefined, `preflight from ${origin}`);
    const post = await raw('/_enclave/feedback', {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ source: 'thumbs_only', path: '/guides/start', helpful: true }),
    });
    t.is(post.status, 403, `post from ${origin}`);
    t.is(post.headers['access-control-allow-origin'], undefined);
  }

  // Signed links are built from the configured public URL, never from the request's Host.
  const hostileHosts: Record<string, string>[] = [
    { Host: 'evil.example:666' },
    { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
  ];
  for (const headers of hostileHosts) {
    const res = await raw(`/v1/static-export/jobs/${real.jobId}/bundle`, {
      method: 'POST',
      headers: { ...headers, Authorization: `Bearer ${app.key}` },
    });
    t.is(res.status, 200);
    t.true((JSON.parse(res.body) as { bundleUrl: string }).bundleUrl.startsWith(`${app.url}/bundles/`), JSON.stringify(headers));
  }

  // Error bodies that repeat the request path are JSON, never sniffed as HTML.
  const markup = await raw('/v1/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
  t.is(markup.status, 404);
  t.regex(String(markup.headers['content-type']), /^application\/json/);
  t.is(markup.headers['x-content-type-options'], 'nosniff');
});

/** JSON bodies that stress the parser and the validator, sized for a route whose body limit is `limit`. */
function hostileBodies(limit: number): { name: string; body: () => string | ReadableStream<Uint8Array>; expect: number[] }[] {
  const depth = Math.min(100_000, Math.floor((limit - 16) / 2));
  const objectDepth = Math.min(20_000, Math.floor((limit - 16) / 8));
  const keys = Math.min(20_000, Math.floor(limit / 16));
  return [
    { name: `one byte over the limit (${limit + 1} bytes)`, body: () => JSON.stringify({ x: 'a'.repeat(limit - 7) }), expect: [413] },
    { name: '8 MiB', body: () => JSON.stringify({ x: 'a'.repeat(8 * 1024 * 1024) }), expect: [413] },
    {
      name: 'chunked, no Content-Length, over the limit',
      body: () => {
        let sent = 0;
        return new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent === 0) controller.enqueue(new TextEncoder().encode('{"x":"'));
            sent += 64 * 1024;
            if (sent > limit + 256 * 1024) {
              controller.enqueue(new TextEncoder().encode('"}'));
              controller.close();
            } else controller.enqueue(new Uint8Array(64 * 1024).fill(97));
          },
        });
      },
      expect: [413],
    },
    { name: `arrays nested ${depth} deep`, body: () => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`, expect: [400] },
    { name: `objects nested ${objectDepth} deep`, body: () => `${'{"a":'.repeat(objectDepth)}1${'}'.repeat(objectDepth)}`, expect: [400] },
    {
      name: `${keys} unknown keys`,
      body: () => JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]))),
      expect: [400],
    },
    {
      name: '__proto__ and constructor keys',
      body: () => '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      expect: [400],
    },
    { name: 'numbers beyond double range', body: () => '{"a":1e309,"b":-1e309,"c":123456789012345678901234567890}', expect: [400] },
    { name: 'invalid UTF-8 and lone surrogates', body: () => '{"a":"\udc00\ud800"}', expect: [400] },
    { name: 'a top-level array', body: () => '[{"prompt":"x"}]', expect: [400] },
    { name: 'truncated JSON', body: () => '{"a":[1,2,', expect: [400] },
  ];
}

test('oversized and deeply nested JSON on every route that takes a body: 413/400 in the error shape, quickly, no prototype pollution', async (t) => {
  // The MCP endpoint answers for the site its Host names (fetch here always sends 127.0.0.1, which
  // names none): its body cap is checked with a site's Host in test/assistant/mcp.int.test.ts.
  const bodyOps = operations.filter((op) => op.hasBody && op.path !== '/_enclave/mcp');
  t.true(bodyOps.length >= 6, `${bodyOps.length} body-taking operations`);
  const slowest = { ms: 0, label: '' };
  let rows = 0;
  for (const op of bodyOps) {
    // Public endpoints a page posts to (feedback, search beacons) take the small feedback limit.
    const limit = op.path.startsWith('/_enclave/') ? app.config.limits.feedbackBodyBytes : app.config.limits.adminBodyBytes;
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(fill(op.path, name)));
    for (const row of hostileBodies(limit)) {
      const started = Date.now();
      const body = row.body();
      const res = await fetch(`${app.url}${path}`, {
        method: op.method,
        headers: { 'Content-Type': 'application/json', ...(op.bearer ? { Authorization: `Bearer ${op.bearer}` } : {}) },
        body,
        ...(typeof body === 'string' ? {} : { duplex: 'half' }),
        signal: AbortSignal.timeout(20_000),
      } as RequestInit).catch(
        (err: Error) =>
          ({
            status: -1,
            headers: new Headers(),
            text: async () => `${err.message}: ${(err.cause as Error | undefined)?.message}`,
          }) as unknown as Response,
      );
      const text = await res.text();
      const ms = Date.now() - started;
      if (ms > slowest.ms) Object.assign(slowest, { ms, label: `${op.method} ${op.path} ${row.name}` });
      const label = `${op.method} ${op.path} ${row.name} → ${res.status} ${text.slice(0, 120)}`;
      rows++;
      // A server may cut an over-limit upload short after answering 413; the client then sees a reset.
      if (res.status === -1 && row.expect.includes(413)) continue;
      t.true(row.expect.includes(res.status), label);
      t.is(typeof (JSON.parse(text) as { error: unknown }).error, 'string', label);
      // A hang guard (no hostile request may stall the server), not a speed test: load can't trip it.
      t.true(ms < 30_000, `${label} took ${ms} ms`);
      // The unread rest of the body must not be parsed as the next request on a reused socket.
      if (res.status === 413) t.is(res.headers.get('connection'), 'close', `${label}: the socket is not reused`);
    }
  }
  t.is(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is untouched');
  t.is((await fetch(`${app.url}/_enclave/health`)).status, 200, 'still healthy');
  t.log(`${rows} hostile bodies on ${bodyOps.length} routes; slowest ${slowest.ms} ms (${slowest.label})`);
});
