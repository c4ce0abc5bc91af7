import test from 'ava';
import { createApp } from '../../src/app/createApp.js';
import { systemClock } from '../../src/platform/Clock.js';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { toOpenApiPath } from '../../src/http/openapi/buildOpenApiDocument.js';
import { buildRouter } from '../../src/http/buildRouter.js';
import { authenticateAdmin } from '../../src/features/control/authenticateAdmin.js';
import { startTestAppliance } from '../helpers/testAppliance.js';

interface OpenApiDoc {
  openapi: string;
  paths: Record<
    string,
    Record<string, { requestBody?: unknown; responses: Record<string, unknown>; parameters: { name: string; in: string }[] }>
  >;
}

test('/openapi.json is OpenAPI 3.1 and documents every route the server answers', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const res = await app.api('/openapi.json', { key: null });
  t.is(res.status, 200);
  const doc = (await res.json()) as OpenApiDoc;
  t.is(doc.openapi, '3.1.0');

  // Rebuild the exact route list the running app mounted, and read the router's own layers:
  // a route added to the router in any other way than through a spec would be missing here.
  const { routes } = createApp({
    config: app.config,
    logger: createLogger('silent'),
    features: app.features.all,
    version: 't',
  });
  const router = buildRouter(routes, {
    authenticate: authenticateAdmin({ keys: app.control.keys, clock: systemClock, logger: createLogger('silent') }),
    adminBodyBytes: 1,
  });
  const layers = router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((m) => ({ method: m.toLowerCase(), path: toOpenApiPath(String(layer.path)) })),
  );
  t.true(layers.length >= 4);
  for (const { method, path } of layers) {
    const op = doc.paths[path]?.[method];
    t.truthy(op, `${method.toUpperCase()} ${path} is documented`);
    t.true(Object.keys(op?.responses ?? {}).length > 0, `${method} ${path} has responses`);
    for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
      t.truthy(
        op?.parameters.find((p) => p.in === 'path' && p.name === name),
        `${method} ${path} documents path parameter ${name}`,
      );
    }
  }
  for (const spec of routes) {
    if (spec.body)
      t.truthy(
        doc.paths[toOpenApiPath(spec.path)][spec.method.toLowerCase()].requestBody,
        `${spec.method} ${spec.path} documents its body`,
      );
  }
});

test('every admin route answers 401 without a key (no route forgets auth)', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const doc = (await (await app.api('/openapi.json', { key: null })).json()) as {
    paths: Record<string, Record<string, { security: unknown[] }>>;
  };
  let checked = 0;
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (op.security.length === 0) continue;
      const concrete = path.replace(/\{projectId\}/g, app.projectId).replace(/\{\w+\}/g, 'x');
      const res = await app.api(concrete, { method: method.toUpperCase(), key: null });
      t.is(res.status, 401, `${method.toUpperCase()} ${path}`);
      checked++;
    }
  }
  t.true(checked > 0);
});
