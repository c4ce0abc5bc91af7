import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deployAndWait, startLoggedAppliance } from './helpers/loggedAppliance.js';

/** An "internal service" that answers every request with `status` and a body holding a secret. */
async function startChattyService(status: number, body: string, type: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'Content-Type': type });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/internal/status`, close: () => new Promise((r) => server.close(() => r())) };
}

test('a bundleUrl answering an error: the API error and the history give the status and a fixed text, never the body', async (t) => {
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  const cases: [number, string, string][] = [
    [500, 'text/plain', 'db=SECRETPLAIN host=10.0.0.7 user=admin'],
    [403, 'application/json', JSON.stringify({ error: 'SECRETJSON token=abc' })],
    [404, 'text/plain', 'SECRETNOTFOUND internal path /srv/x'],
  ];
  for (const [status, type, body] of cases) {
    const service = await startChattyService(status, body, type);
    try {
      const result = await deployAndWait(app, { bundleUrl: service.url });
      t.is(result.status, 'failed', `${status}`);
      t.regex(result.error ?? '', new RegExp(`HTTP ${status} from http://127\\.0\\.0\\.1:\\d+/internal/status: `), `${status}`);
      t.false(/SECRET/.test(result.error ?? ''), `${status}: the API error carries no body text`);
    } finally {
      await service.close();
    }
  }
  const history = await (await app.api('/v1/deployments')).json();
  t.is(history.history.length, cases.length);
  const kept = JSON.stringify(history);
  t.false(kept.includes('SECRET'), 'the deployment history keeps no body text');
  for (const row of history.history) {
    const one = await (await app.api(`/v1/deployments/${row.id}`)).json();
    t.false(JSON.stringify(one).includes('SECRET'));
  }
  t.false(JSON.stringify(app.logs).includes('SECRET'), 'nor the log');
});
