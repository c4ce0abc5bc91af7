import test from 'ava';
import type { Server } from 'node:http';
import type { Context, Next } from 'koa';
import { createApp } from '../../src/app/createApp.js';
import { listen } from '../../src/app/listen.js';
import type { Feature } from '../../src/features/Feature.js';
import { defineRoute } from '../../src/http/defineRoute.js';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { makeTempDir, makeTestConfig } from '../helpers/testAppliance.js';

const adminRoute = defineRoute({
  method: 'GET',
  path: '/v1/whoami',
  summary: 'x',
  tag: 't',
  auth: 'admin',
  responses: { 200: { description: 'x' } },
  handler(ctx) {
    ctx.body = { auth: ctx.state.auth, seen: ctx.state.seen };
  },
});

/** A feature whose middleware notes its name on the request, in the order they ran. */
function marking(name: string, extra: Partial<Feature> = {}): Feature {
  return {
    name,
    routes: [],
    middleware: [
      async function mark(ctx: Context, next: Next) {
        ctx.state.seen = [...((ctx.state.seen as string[] | undefined) ?? []), name];
        ctx.set(`X-Seen-${name}`, '1');
        await next();
      },
    ],
    ...extra,
  };
}

async function serve(features: Feature[]): Promise<{ url: string; close: () => Promise<void> }> {
  const config = makeTestConfig(await makeTempDir());
  const { app } = createApp({ config, logger: createLogger('silent'), features, version: 'test' });
  const { httpServer, port } = await listen(app, config.server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => (httpServer as Server).close(() => resolve())),
  };
}

test("features' middleware runs for every Koa request, in feature order, and the authenticating feature guards admin routes", async (t) => {
  const gate = marking('gate', {
    routes: [adminRoute],
    async authenticate(ctx: Context, next: Next) {
      if (ctx.get('Authorization') !== 'Bearer good') {
        ctx.status = 401;
        ctx.body = { error: 'no' };
        return;
      }
      ctx.state.auth = { keyId: 'k', projectId: 'p', scope: 'read' };
      await next();
    },
  });
  const server = await serve([marking('first'), gate, marking('last')]);
  t.teardown(server.close);
  const ok = await fetch(`${server.url}/v1/whoami`, { headers: { Authorization: 'Bearer good' } });
  t.is(ok.status, 200);
  t.deepEqual(await ok.json(), { auth: { keyId: 'k', projectId: 'p', scope: 'read' }, seen: ['first', 'gate', 'last'] });
  t.is((await fetch(`${server.url}/v1/whoami`)).status, 401);
  // Middleware also sees requests no route answers (CORS preflights are such requests).
  const unrouted = await fetch(`${server.url}/_enclave/nothing`, { method: 'OPTIONS' });
  t.is(unrouted.headers.get('x-seen-last'), '1');
});

test('with no feature that authenticates, admin routes are closed (401), not open', async (t) => {
  const server = await serve([{ name: 'lonely', routes: [adminRoute] }]);
  t.teardown(server.close);
  const res = await fetch(`${server.url}/v1/whoami`, { headers: { Authorization: 'Bearer anything' } });
  t.is(res.status, 401);
  t.like(await res.json(), { error: 'Missing or invalid admin key' });
});
