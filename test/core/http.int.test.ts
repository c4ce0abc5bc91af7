import test from 'ava';
import { z } from 'zod';
import { createApp } from '../../src/app/createApp.js';
import { AppError } from '../../src/platform/AppError.js';
import { systemClock } from '../../src/platform/Clock.js';
import { defineRoute } from '../../src/http/defineRoute.js';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { listen } from '../../src/app/listen.js';
import { makeTempDir, makeTestConfig, startTestAppliance } from '../helpers/testAppliance.js';

test('malformed JSON → 400, oversized body → 413, wrong content type → 415, all in the error shape', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const path = `/v1/projects/${app.projectId}`;
  const bad = await app.api(path, { method: 'PATCH', body: '{"name": ', headers: { 'Content-Type': 'application/json' } });
  t.is(bad.status, 400);
  t.deepEqual(await bad.json(), { error: 'Malformed JSON body' });

  const big = await app.api(path, { method: 'PATCH', json: { name: 'x'.repeat(1024 * 1024 + 10) } });
  t.is(big.status, 413);
  t.regex((await big.json()).error, /too large/);

  const text = await app.api(path, { method: 'PATCH', body: 'name=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  t.is(text.status, 415);
  t.truthy((await text.json()).error);

  const array = await app.api(path, { method: 'PATCH', json: [1, 2] });
  t.is(array.status, 400);
});

test('unknown body fields are rejected and every problem is listed at once', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const res = await app.api(`/v1/projects/${app.projectId}`, {
    method: 'PATCH',
    json: { nmae: 'typo', name: '', features: { staticExport: 'yes', extra: 1 } },
  });
  t.is(res.status, 400);
  const body = (await res.json()) as { error: string; details: { message: string }[] };
  const messages = body.details.map((d) => d.message).join('\n');
  t.true(body.details.length >= 3, messages);
  t.regex(messages, /nmae/);
  t.regex(messages, /body\.name/);
  t.regex(messages, /body\.features\.staticExport/);
  t.regex(messages, /extra/);
});

test('read-scope keys may not write; writes by write keys persist', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const { createAdminKey } = await import('../../src/features/control/createAdminKey.js');
  const reader = await createAdminKey(app.control, systemClock, { projectId: app.projectId, name: 'r', scope: 'read' });
  const denied = await app.api(`/v1/projects/${app.projectId}`, { method: 'PATCH', json: { name: 'n' }, key: reader.key });
  t.is(denied.status, 403);
  t.deepEqual(await denied.json(), { error: 'This key is read-only' });
  const ok = await app.api(`/v1/projects/${app.projectId}`, {
    method: 'PATCH',
    json: { name: 'Docs team', features: { staticExport: false } },
  });
  t.is(ok.status, 200);
  t.like(await ok.json(), { name: 'Docs team', features: { staticExport: false } });
});

test('unknown routes are 404 JSON; a request id is echoed only when safe', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const res = await app.api('/v1/nothing/here');
  t.is(res.status, 404);
  t.deepEqual(await res.json(), { error: 'No route for GET /v1/nothing/here' });
  const safe = await app.api('/_enclave/health', { headers: { 'X-Request-Id': 'abc-123' } });
  t.is(safe.headers.get('x-request-id'), 'abc-123');
  const unsafe = await app.api('/_enclave/health', { headers: { 'X-Request-Id': 'a b<script>' } });
  t.regex(unsafe.headers.get('x-request-id')!, /^[0-9a-f]{16}$/);
});

test('a 5xx never leaks the internal message or a stack; a full disk is 507', async (t) => {
  const dir = await makeTempDir();
  const config = makeTestConfig(dir);
  const lines: string[] = [];
  const logger = createLogger('error', { write: (line: string) => void lines.push(line) });
  const routes = [
    defineRoute({
      method: 'GET',
      path: '/v1/boom',
      summary: 'x',
      tag: 't',
      auth: 'public',
      responses: { 500: { description: 'x' } },
      handler() {
        throw new Error('secret internal detail at /srv/x');
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/full',
      summary: 'x',
      tag: 't',
      auth: 'public',
      responses: { 507: { description: 'x' } },
      handler() {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/gone',
      summary: 'x',
      tag: 't',
      auth: 'public',
      query: z.strictObject({}),
      responses: { 410: { description: 'x' } },
      handler() {
        throw new AppError(410, 'gone for good');
      },
    }),
  ];
  const { app } = createApp({ config, logger, features: [{ name: 'test', routes }], version: 'test' });
  const { httpServer, port } = await listen(app, config.server);
  t.teardown(() => new Promise<void>((r) => httpServer.close(() => r())));
  const boom = await fetch(`http://127.0.0.1:${port}/v1/boom`);
  t.is(boom.status, 500);
  const text = await boom.text();
  t.is(text, '{"error":"Internal server error"}');
  t.true(
    lines.some((l) => l.includes('secret internal detail')),
    'the detail goes to the log',
  );
  const full = await fetch(`http://127.0.0.1:${port}/v1/full`);
  t.is(full.status, 507);
  t.notRegex(await full.text(), /ENOSPC|device/);
  const gone = await fetch(`http://127.0.0.1:${port}/v1/gone`);
  t.deepEqual(await gone.json(), { error: 'gone for good' });
});

test('bundles hosted on an allowed origin get CORS on the feedback and health endpoints; other origins get none', async (t) => {
  const app = await startTestAppliance({ overrides: { feedback: { allowedOrigins: ['https://docs.partner.internal'] } } });
  t.teardown(() => app.close());
  const preflight = await app.api('/_enclave/feedback', {
    method: 'OPTIONS',
    key: null,
    headers: { Origin: 'https://docs.partner.internal', 'Access-Control-Request-Method': 'POST' },
  });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('access-control-allow-origin'), 'https://docs.partner.internal');
  t.is(preflight.headers.get('access-control-allow-methods'), 'POST');
  const health = await app.api('/_enclave/health', { key: null, headers: { Origin: 'https://docs.partner.internal' } });
  t.is(health.headers.get('access-control-allow-origin'), 'https://docs.partner.internal');
  const stranger = await app.api('/_enclave/health', { key: null, headers: { Origin: 'https://evil.example' } });
  t.is(stranger.headers.get('access-control-allow-origin'), null);
  const strangerPreflight = await app.api('/_enclave/feedback', {
    method: 'OPTIONS',
    key: null,
    headers: { Origin: 'https://evil.example' },
  });
  t.not(strangerPreflight.status, 204);
  t.is(strangerPreflight.headers.get('access-control-allow-origin'), null);
});
