import test from 'ava';
import fc from 'fast-check';
import { authHeaderFor, FuzzLedger, keepBodyLocal, nasty, startFuzzTarget, type AuthKind } from './fuzzTarget.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);

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
  const target = await startFuzzTarget(t);
  const { app, operations } = target;
  t.true(operations.length >= 3);
  // Path segments: well-formed ids that don't exist, the appliance's real ids, and hostile text.
  const realIds = Object.values(target.real).flat();
  const segment = fc.oneof(
    { arbitrary: fc.stringMatching(/^(se|aj|fb|dp|proj)_[0-9a-f]{16}$/), weight: 2 },
    { arbitrary: fc.constantFrom(...realIds), weight: 2 },
    { arbitrary: nasty, weight: 1 },
    { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
  );

  const rssBefore = process.memoryUsage().rss;
  const ledger = new FuzzLedger();

  await fc.assert(
    fc.asyncProperty(
      fc.record({
        op: fc.nat({ max: operations.length - 1 }),
        keepMethod: fc.boolean(),
        method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
        params: fc.array(segment, { minLength: 4, maxLength: 4 }),
        useOwnProject: fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 }),
        query: fc.dictionary(
          fc.oneof(
            fc.constantFrom('limit', 'cursor', 'status', 'dateFrom', 'dateTo', 'source', 'expires', 'kid', 'sig'),
            fc.string({ maxLength: 8 }),
          ),
          segment,
          { maxKeys: 4 },
        ),
        auth: fc.constantFrom<AuthKind>('valid', 'none', 'garbage', 'other', 'read', 'basic', 'typo'),
        contentType: fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
          '',
        ),
        body: fc.option(bodyArb, { nil: undefined }),
        randomPath: fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 4 },
          { arbitrary: fc.array(segment, { minLength: 1, maxLength: 5 }), weight: 1 },
        ),
        pick: fc.nat(),
      }),
      async (r) => {
        const op = operations[r.op];
        let i = 0;
        let ownProjectInPath = false;
        let path = r.randomPath
          ? `/${r.randomPath.map(encodeURIComponent).join('/')}`
          : op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
              if (name === 'projectId' && r.useOwnProject) {
                ownProjectInPath = true;
                return app.projectId;
              }
              return encodeURIComponent(r.params[i++ % 4]);
            });
        const query = new URLSearchParams(r.query).toString();
        if (query) path += `?${query}`;
        const method = r.keepMethod ? op.method : r.method;
        const headers: Record<string, string> = {};
        const authorization = authHeaderFor(target, op, r.auth);
        if (authorization) headers.Authorization = authorization;
        if (r.contentType) headers['Content-Type'] = r.contentType;
        const sendBody = r.body !== undefined && method !== 'GET' && method !== 'HEAD';
        let res: Response;
        try {
          res = await fetch(`${app.url}${path}`, {
            method,
            headers,
            body: sendBody ? keepBodyLocal(r.body!, target, r.pick) : undefined,
            signal: AbortSignal.timeout(10_000),
          });
        } catch (err) {
          ledger.failures.push(`${method} ${path.slice(0, 120)}: ${(err as Error).name} ${(err as Error).message}`);
          return true; // recorded; keep going so one run reports every kind of failure
        }
        const text = method === 'HEAD' ? '' : await res.text();
        ledger.check(
          { method, path, op: r.randomPath ? null : op, auth: r.auth, crossProject: ownProjectInPath },
          { status: res.status, contentType: res.headers.get('content-type') ?? '', text },
        );
        return true;
      },
    ),
    { numRuns: RUNS },
  );
  t.deepEqual(ledger.failures.slice(0, 25), [], `${ledger.failures.length} failure(s)`);
  const growthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
  t.log(
    `fuzzed ${ledger.requests} requests over ${operations.length} operations; 5xx: ${ledger.fiveXx}; RSS growth ${growthMb.toFixed(0)} MB; statuses ${JSON.stringify(ledger.histogram())}`,
  );
  t.true(growthMb < 300, `memory bounded (grew ${growthMb.toFixed(0)} MB)`);
});
