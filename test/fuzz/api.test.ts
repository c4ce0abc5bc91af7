import test from 'ava';
import fc from 'fast-check';
import { createAdminKey } from '../../src/domain/keys/createAdminKey.js';
import { createProject } from '../../src/domain/projects/createProject.js';
import { systemClock } from '../../src/domain/Clock.js';
import { startTestAppliance } from '../helpers/testAppliance.js';

interface Operation {
  method: string;
  path: string;
  secured: boolean;
  documented: string[];
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 1200);

/** Values that have broken parsers before: traversal, encodings, control bytes, huge and odd numbers. */
const nasty = fc.constantFrom(
  '..', '../../etc/passwd', '%2e%2e%2f', '%252e%252e', '..\\..\\', '\u0000', '%00', '\uFF0E\uFF0E', '\u202E', 'é', '😀',
  '-1', '0', '1e309', 'NaN', 'null', 'true', '[]', '{}', "' OR 1=1 --", '<script>alert(1)</script>', 'a'.repeat(5000), '%', '%zz',
);
const segment = fc.oneof(
  { arbitrary: fc.stringMatching(/^(se|aj|fb|proj)_[0-9a-f]{16}$/), weight: 3 },
  { arbitrary: nasty, weight: 1 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
);

function deepNest(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

const bodyArb = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.oneof(nasty, fc.jsonValue({ maxDepth: 2 }))).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.integer({ min: 1, max: 20_000 }).map(deepNest),
  fc.constant('x'.repeat(2 * 1024 * 1024)),
  fc.constant(''),
);

test('fuzzed requests against every documented endpoint: no 5xx, no hang, spec error shape, no auth bypass, bounded memory', async (t) => {
  t.timeout(600_000);
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const other = await createProject(app.control, systemClock, 'other');
  const otherKey = (await createAdminKey(app.control, systemClock, { projectId: other.id, name: 'o', scope: 'write' })).key;
  const readKey = (await createAdminKey(app.control, systemClock, { projectId: app.projectId, name: 'r', scope: 'read' })).key;
  const doc = (await (await app.api('/openapi.json', { key: null })).json()) as { paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, unknown> }>> };
  const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, secured: op.security.length > 0, documented: Object.keys(op.responses) })),
  );
  t.true(operations.length >= 3);

  const rssBefore = process.memoryUsage().rss;
  const stats = { requests: 0, fiveXx: 0, statuses: new Map<number, number>() };
  const failures: string[] = [];

  await fc.assert(
    fc.asyncProperty(
      fc.record({
        op: fc.nat({ max: operations.length - 1 }),
        keepMethod: fc.boolean(),
        method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
        params: fc.array(segment, { minLength: 4, maxLength: 4 }),
        useOwnProject: fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 }),
        query: fc.dictionary(fc.oneof(fc.constantFrom('limit', 'cursor', 'status', 'dateFrom', 'dateTo', 'source', 'expires', 'kid', 'sig'), fc.string({ maxLength: 8 })), segment, { maxKeys: 4 }),
        auth: fc.constantFrom('valid', 'none', 'garbage', 'other', 'read', 'basic', 'typo'),
        contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', ''),
        body: fc.option(bodyArb, { nil: undefined }),
        randomPath: fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: fc.array(segment, { minLength: 1, maxLength: 5 }), weight: 1 }),
      }),
      async (r) => {
        const op = operations[r.op];
        let i = 0;
        let path = r.randomPath
          ? `/${r.randomPath.map(encodeURIComponent).join('/')}`
          : op.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'projectId' && r.useOwnProject ? app.projectId : encodeURIComponent(r.params[i++ % 4])));
        const query = new URLSearchParams(r.query).toString();
        if (query) path += `?${query}`;
        const method = r.keepMethod ? op.method : r.method;
        const headers: Record<string, string> = {};
        const keyFor = { valid: app.key, other: otherKey, read: readKey, typo: `${app.key.slice(0, -1)}x`, garbage: 'enc_' + 'A'.repeat(46), none: '', basic: '' }[r.auth];
        if (r.auth === 'basic') headers.Authorization = 'Basic dXNlcjpwYXNz';
        else if (keyFor) headers.Authorization = `Bearer ${keyFor}`;
        if (r.contentType) headers['Content-Type'] = r.contentType;
        const sendBody = r.body !== undefined && method !== 'GET' && method !== 'HEAD';
        let res: Response;
        try {
          res = await fetch(`${app.url}${path}`, { method, headers, body: sendBody ? r.body : undefined, signal: AbortSignal.timeout(10_000) });
        } catch (err) {
          failures.push(`${method} ${path.slice(0, 120)}: ${(err as Error).name} ${(err as Error).message}`);
          return true; // recorded above; keep going so one run reports every kind of failure
        }
        const text = method === 'HEAD' ? '' : await res.text();
        stats.requests++;
        stats.statuses.set(res.status, (stats.statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500 && !(res.status === 503 && op.documented.includes('503'))) {
          stats.fiveXx++;
          failures.push(`${res.status} ${method} ${path.slice(0, 120)} → ${text.slice(0, 200)}`);
          return true; // recorded above; keep going so one run reports every kind of failure
        }
        const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
        if (res.status >= 400 && isJson && text) {
          const body = JSON.parse(text) as { error?: unknown; details?: unknown };
          const shapeOk = typeof body.error === 'string' && (body.details === undefined || (Array.isArray(body.details) && body.details.every((d) => typeof (d as { message?: unknown }).message === 'string')));
          if (!shapeOk) {
            failures.push(`bad error shape ${res.status} ${method} ${path.slice(0, 120)}: ${text.slice(0, 200)}`);
            return true; // recorded above; keep going so one run reports every kind of failure
          }
        }
        const matchedSecuredRoute = !r.randomPath && op.secured;
        // OPTIONS answers the Allow header with an empty body: it reveals no data, so it isn't a bypass.
        if (matchedSecuredRoute && r.auth !== 'valid' && r.auth !== 'read' && res.status < 400 && !(method === 'OPTIONS' && text === '')) {
          failures.push(`auth bypass: ${r.auth} key got ${res.status} on ${method} ${path.slice(0, 120)}`);
          return true; // recorded above; keep going so one run reports every kind of failure
        }
        if (matchedSecuredRoute && r.auth === 'read' && res.status < 400 && !['GET', 'HEAD', 'OPTIONS'].includes(method)) {
          failures.push(`read key wrote: ${method} ${path.slice(0, 120)} → ${res.status}`);
          return true; // recorded above; keep going so one run reports every kind of failure
        }
        return true;
      },
    ),
    { numRuns: RUNS },
  );
  t.deepEqual(failures.slice(0, 25), [], `${failures.length} failure(s)`);
  const growthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
  t.log(`fuzzed ${stats.requests} requests over ${operations.length} operations; 5xx: ${stats.fiveXx}; RSS growth ${growthMb.toFixed(0)} MB; statuses ${JSON.stringify(Object.fromEntries(stats.statuses))}`);
  t.true(growthMb < 300, `memory bounded (grew ${growthMb.toFixed(0)} MB)`);
});
