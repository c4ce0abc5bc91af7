import test from 'ava';
import { checkAgainstOpenApi } from '../helpers/openApiConformance.js';
import { startTestAppliance } from '../helpers/testAppliance.js';

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters: { name: string; schema: Record<string, unknown> }[];
        responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, Record<string, unknown>> } }> }>;
      }
    >
  >;
};

test('/openapi.json is precise: integer parameters with bounds and defaults, minLength, date-time and uri, every status', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const doc = (await (await app.api('/openapi.json')).json()) as Doc;
  const param = (path: string, name: string) => doc.paths[path]!.get!.parameters.find((p) => p.name === name)!.schema;
  t.like(param('/v1/analytics/{projectId}/feedback', 'limit'), { type: 'integer', minimum: 1, maximum: 100, default: 50 });
  t.like(param('/v1/analytics/{projectId}/views', 'offset'), { type: 'integer', minimum: 0, default: 0 });
  t.like(param('/v2/agent/{projectId}/jobs', 'limit'), { type: 'integer', minimum: 1, maximum: 100, default: 20 });

  const create = doc.paths['/v2/agent/{projectId}/job']!.post!;
  const job = create.responses['201']!.content!['application/json']!.schema.properties!;
  t.is(job.createdAt!.format, 'date-time');
  t.is(job.prLink!.anyOf ? (job.prLink!.anyOf as { format?: string }[])[0]!.format : job.prLink!.format, 'uri');
  for (const status of ['400', '401', '403', '413', '415', '429', '500']) t.truthy(create.responses[status], `create lists ${status}`);
  const prompt = (
    create as unknown as { requestBody: { content: Record<string, { schema: { properties: Record<string, { minLength?: number }> } }> } }
  ).requestBody.content['application/json']!.schema.properties.prompt!;
  t.is(prompt.minLength, 1);
  const bundle =
    doc.paths['/v1/static-export/jobs/{jobId}/bundle']!.post!.responses['409']!.content!['application/json']!.schema.properties!;
  t.truthy(bundle.status, 'the 409 body names the job status');
});

test('the response check fails on drift: an undocumented status, a body off its schema, an unknown path that is not a JSON 404', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const url = (path: string) => new URL(`${app.url}${path}`);
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  await t.throwsAsync(checkAgainstOpenApi(app.url, 'GET', url(`/v1/projects/${app.projectId}`), json(418, { error: 'teapot' })), {
    message: /answered 418, which \/openapi\.json does not list/,
  });
  await t.throwsAsync(checkAgainstOpenApi(app.url, 'GET', url('/v1/static-export/jobs/se_0123456789abcdef'), json(200, { jobId: 1 })), {
    message: /a body the document does not allow/,
  });
  await t.throwsAsync(
    checkAgainstOpenApi(
      app.url,
      'GET',
      url('/v1/nothing-here'),
      new Response('<html>', { status: 404, headers: { 'content-type': 'text/html' } }),
    ),
    {
      message: /no documented operation/,
    },
  );
  await t.notThrowsAsync(checkAgainstOpenApi(app.url, 'GET', url('/v1/nothing-here'), json(404, { error: 'Not found' })));
  // And the real server's JSON 404 passes through the hook of app.api().
  const missing = await app.api('/v1/nothing-here');
  t.is(missing.status, 404);
});
