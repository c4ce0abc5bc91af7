import test from 'ava';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toHtml } from 'hast-util-to-html';
import { findOperation, listOperations, loadOpenApiDocuments, renderOperation } from '../../../src/render/openapi/index.js';
import { createCodeHighlighter } from '../../../src/render/code/createCodeHighlighter.js';
import { fakeRenderContext } from './fakeRenderContext.js';
import { sharedPath } from '../../helpers/sharedDir.js';

const STARTER = sharedPath('corpora', 'starter');
const tempDir = () => mkdtemp(path.join(tmpdir(), 'enclave-openapi-'));

async function starterDoc() {
  const ctx = fakeRenderContext();
  const docs = await loadOpenApiDocuments(STARTER, ['api-reference/openapi.json'], ctx.report);
  const doc = docs.get('api-reference/openapi.json');
  if (!doc) throw new Error('starter spec not loaded');
  return { doc, ctx };
}

test('the starter spec lists its operations, webhooks included', async (t) => {
  const { doc, ctx } = await starterDoc();
  t.is(doc.version, '3.1');
  t.deepEqual(
    listOperations(doc).map((o) => `${o.method} ${o.path}`),
    ['get /plants', 'post /plants', 'delete /plants/{id}', 'webhook /plant/webhook'],
  );
  t.truthy(findOperation(doc, 'GET', '/plants'));
  t.truthy(findOperation(new Map([['x', doc]]), 'WEBHOOK', '/plant/webhook'));
  t.truthy(findOperation([doc], 'delete', '/plants/{plantId}/'), 'param names and trailing slash do not matter');
  t.is(findOperation(doc, 'put', '/plants'), undefined);
  t.deepEqual(ctx.warnings, []);
});

test('POST /plants: endpoint, auth, allOf-merged body, responses and highlighted examples', async (t) => {
  const { doc } = await starterDoc();
  const h = await createCodeHighlighter({});
  const ctx = fakeRenderContext();
  const html = toHtml(renderOperation(doc, 'post', '/plants', ctx, { highlight: h.highlight }) as never);
  t.regex(
    html,
    /<span class="enclave-api-method enclave-api-method-post">POST<\/span><span class="enclave-api-server">http:\/\/sandbox.mintlify.com<\/span><span class="enclave-api-path">\/plants<\/span>/,
  );
  t.regex(
    html,
    /<h2 id="authorizations">Authorizations<\/h2><div class="enclave-field"><div class="enclave-field-head"><code class="enclave-field-name">Authorization<\/code>/,
  );
  t.regex(html, /<h2 id="body">Body<\/h2><p class="enclave-api-media"><code>application\/json<\/code> · required<\/p>/);
  // NewPlant = allOf(Plant, {id}): all three fields, with Plant's and the extra part's `required`.
  for (const field of ['name', 'tag', 'id']) t.regex(html, new RegExp(`<code class="enclave-field-name">${field}</code>`));
  t.regex(
    html,
    /<code class="enclave-field-name">id<\/code><span class="enclave-field-tag enclave-field-type">integer&#x3C;int64><\/span><span class="enclave-field-tag enclave-field-required">required/,
  );
  t.regex(html, /<span class="enclave-api-status enclave-api-status-s2">200<\/span> plant response/);
  t.regex(html, /<span class="enclave-api-status enclave-api-status-s4">400<\/span>/);
  t.regex(
    html,
    /aria-label="Request example" data-enclave-request-example=""><figure class="enclave-code has-title" data-enclave-code="" data-lang="bash" data-filename="cURL">/,
  );
  const text = html.replace(/<[^>]+>/g, '');
  t.regex(text, /--header 'Authorization: Bearer &#x3C;token>'/);
  t.regex(text, /--data '\{/);
  t.regex(html, /aria-label="Response example"[\s\S]*data-label="200"[\s\S]*data-label="400"/);
  t.regex(html, /class="ec-/, 'examples went through the highlighter');
  t.true(ctx.features.has('openapi'));
  t.deepEqual(ctx.warnings, []);
});

test('DELETE /plants/{id} shows a required path parameter; GET shows the query parameter; a webhook has no cURL', async (t) => {
  const { doc } = await starterDoc();
  const del = toHtml(renderOperation(doc, 'delete', '/plants/{id}', fakeRenderContext()) as never);
  t.regex(
    del,
    /<h2 id="path-parameters">Path Parameters<\/h2><div class="enclave-field" data-enclave-anchor="param-id"><div class="enclave-field-head"><code class="enclave-field-name">id<\/code><span class="enclave-field-tag enclave-field-type">integer&#x3C;int64><\/span><span class="enclave-field-tag enclave-field-location">path<\/span><span class="enclave-field-tag enclave-field-required">required/,
  );
  t.regex(del, /curl --request DELETE/);
  const get = toHtml(renderOperation(doc, 'get', '/plants', fakeRenderContext()) as never);
  t.regex(get, /<h2 id="query-parameters">Query Parameters<\/h2>[\s\S]*<code class="enclave-field-name">limit<\/code>/);
  // Without a highlighter the examples keep the same figure markup, uncoloured.
  t.regex(get, /<figure class="enclave-code has-title" data-enclave-code="" data-lang="bash" data-filename="cURL">/);
  const hook = toHtml(renderOperation(doc, 'webhook', '/plant/webhook', fakeRenderContext()) as never);
  t.regex(hook, /WEBHOOK POST/);
  t.notRegex(hook, /curl/);
  t.regex(hook, /<code class="enclave-field-name">name<\/code>/);
});

test('an unknown operation renders a notice and a warning, not a throw', async (t) => {
  const { doc } = await starterDoc();
  const ctx = fakeRenderContext();
  const html = toHtml(renderOperation(doc, 'get', '/nope', ctx) as never);
  t.regex(html, /GET \/nope is not in api-reference\/openapi.json/);
  t.is(ctx.warnings.length, 1);
});

const SPEC_31 = `openapi: 3.1.0
info: { title: Pets, version: '1' }
servers:
  - url: https://{region}.api.example.com/v1
    variables: { region: { default: eu } }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Api-Key }
  parameters:
    PetId: { name: petId, in: path, required: true, schema: { type: string, format: uuid }, description: The pet's id }
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: { type: string, description: 'The **name**, see [docs](/guides/pets)' }
        kind: { type: string, enum: [cat, dog] }
        owner: { $ref: './shared/owner.yaml#/Owner' }
        friends: { type: array, items: { $ref: '#/components/schemas/Pet' } }
        secret: { type: string, writeOnly: true }
        created: { type: string, format: date-time, readOnly: true }
security: [ { key: [] } ]
paths:
  /pets/{petId}:
    parameters: [ { $ref: '#/components/parameters/PetId' } ]
    put:
      summary: Update a pet
      operationId: updatePet
      tags: [pets]
      deprecated: true
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Pet' }
            examples:
              tom: { summary: Tom the cat, value: { name: Tom, kind: cat } }
      responses:
        '200':
          description: The pet
          content:
            application/json: { schema: { $ref: '#/components/schemas/Pet' } }
        '404': { $ref: './shared/owner.yaml#/NotFound' }
      x-codeSamples:
        - { lang: python, label: Python SDK, source: "client.pets.update('1')" }
`;
const OWNER = `Owner:
  type: object
  properties:
    email: { type: string, format: email }
    address: { type: object, properties: { city: { type: string } } }
NotFound:
  description: No such pet
  content:
    application/json: { schema: { type: object, properties: { error: { type: string } } } }
`;

test('a hand-written 3.1 YAML spec with internal, parameter and cross-file $refs (and recursion) renders', async (t) => {
  const dir = await tempDir();
  await mkdir(path.join(dir, 'api', 'shared'), { recursive: true });
  await writeFile(path.join(dir, 'api', 'pets.yaml'), SPEC_31);
  await writeFile(path.join(dir, 'api', 'shared', 'owner.yaml'), OWNER);
  const ctx = fakeRenderContext();
  const docs = await loadOpenApiDocuments(dir, ['/api/pets.yaml'], ctx.report);
  const doc = docs.get('/api/pets.yaml')!;
  t.truthy(doc);
  t.deepEqual(listOperations(doc), [
    { method: 'put', path: '/pets/{petId}', summary: 'Update a pet', operationId: 'updatePet', tags: ['pets'], deprecated: true },
  ]);
  const html = toHtml(renderOperation(doc, 'PUT', '/pets/{petId}', ctx) as never);
  t.regex(html, /<span class="enclave-api-server">https:\/\/eu.api.example.com\/v1<\/span>/, 'server variables take their defaults');
  t.regex(html, /class="enclave-badge enclave-badge-color-orange enclave-badge-size-sm enclave-api-deprecated">deprecated</);
  t.regex(html, /<code class="enclave-field-name">X-Api-Key<\/code>/);
  t.regex(
    html,
    /<code class="enclave-field-name">petId<\/code><span class="enclave-field-tag enclave-field-type">string&#x3C;uuid><\/span><span class="enclave-field-tag enclave-field-location">path<\/span>/,
  );
  t.regex(html, /The <strong>name<\/strong>, see <a href="href:\/guides\/pets">docs<\/a>/);
  t.regex(html, /Available options: <code>cat<\/code>, <code>dog<\/code>/);
  // Cross-file ref: owner's fields appear nested in an Expandable.
  t.regex(
    html,
    /<code class="enclave-field-name">owner<\/code>[\s\S]*Show child attributes[\s\S]*<code class="enclave-field-name">email<\/code>[\s\S]*<code class="enclave-field-name">city<\/code>/,
  );
  // Recursion stops instead of looping.
  t.regex(
    html,
    /<code class="enclave-field-name">friends<\/code><span class="enclave-field-tag enclave-field-type">object\[\] \(recursive\)<\/span>/,
  );
  // writeOnly only in the request, readOnly only in the response.
  const [body, response] = html.split('<h2 id="response">');
  t.regex(body, /field-name">secret</);
  t.notRegex(body, /field-name">created</);
  t.regex(response, /field-name">created</);
  t.notRegex(response, /field-name">secret</);
  t.regex(response, /<span class="enclave-api-status enclave-api-status-s4">404<\/span> No such pet/);
  t.regex(html, /--header 'X-Api-Key: &#x3C;api-key>'/);
  t.regex(html, /&#x22;name&#x22;: &#x22;Tom&#x22;|"name": "Tom"/, 'the named example feeds the cURL body');
  t.regex(html, /data-filename="Python SDK"/);
  t.deepEqual(ctx.warnings, []);
});

test('remote specs and remote $refs are reported, never fetched', async (t) => {
  let requests = 0;
  const server = http.createServer((_req, res) => {
    requests++;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = await tempDir();
  await writeFile(
    path.join(dir, 'spec.json'),
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'x', version: '1' },
      paths: {
        '/a': {
          get: {
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `${base}/schemas.json#/Thing` } } } },
            },
          },
        },
      },
    }),
  );
  const ctx = fakeRenderContext();
  const docs = await loadOpenApiDocuments(dir, [`${base}/openapi.json`, 'spec.json'], ctx.report);
  t.false(docs.has(`${base}/openapi.json`));
  t.true(docs.has('spec.json'));
  t.deepEqual(ctx.externalUrls, [
    { page: `${base}/openapi.json`, url: `${base}/openapi.json` },
    { page: 'spec.json', url: `${base}/schemas.json#/Thing` },
  ]);
  t.is(ctx.warnings.length, 2);
  const html = toHtml(renderOperation(docs.get('spec.json')!, 'get', '/a', ctx) as never);
  t.regex(html, /Schema defined in <code>http:\/\/127.0.0.1:\d+\/schemas.json#\/Thing<\/code> \(not available offline\)/);
  await new Promise((r) => setTimeout(r, 50));
  t.is(requests, 0);
});

test('missing, invalid, non-OpenAPI and out-of-tree specs are reported and skipped', async (t) => {
  const dir = await tempDir();
  await writeFile(path.join(dir, 'bad.yaml'), 'openapi: [unclosed');
  await writeFile(path.join(dir, 'other.json'), '{"hello": 1}');
  await writeFile(
    path.join(dir, 'escape.json'),
    JSON.stringify({ openapi: '3.0.0', paths: {}, components: { schemas: { X: { $ref: '../../../etc/passwd#/x' } } } }),
  );
  const ctx = fakeRenderContext();
  const docs = await loadOpenApiDocuments(dir, ['missing.json', 'bad.yaml', 'other.json', '../outside.json', 'escape.json'], ctx.report);
  t.deepEqual([...docs.keys()], ['escape.json']);
  t.is(ctx.warnings.length, 5);
  t.regex(ctx.warnings.join('\n'), /outside the docs folder/);
});

test('Swagger 2.0 is converted best-effort: servers, body and formData parameters, definitions', async (t) => {
  const dir = await tempDir();
  await writeFile(
    path.join(dir, 'swagger.json'),
    JSON.stringify({
      swagger: '2.0',
      info: { title: 's', version: '1' },
      host: 'api.example.com',
      basePath: '/v2',
      schemes: ['https'],
      securityDefinitions: { basic: { type: 'basic' } },
      security: [{ basic: [] }],
      definitions: { Order: { type: 'object', properties: { qty: { type: 'integer' } } } },
      paths: {
        '/orders': {
          post: {
            parameters: [
              { in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/Order' } },
              { in: 'query', name: 'dry', type: 'boolean', required: true },
            ],
            responses: { '201': { description: 'made', schema: { $ref: '#/definitions/Order' } } },
          },
        },
        '/upload': {
          post: {
            consumes: ['multipart/form-data'],
            parameters: [{ in: 'formData', name: 'file', type: 'file', required: true }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    }),
  );
  const ctx = fakeRenderContext();
  const doc = (await loadOpenApiDocuments(dir, ['swagger.json'], ctx.report)).get('swagger.json')!;
  t.is(doc.version, '2.0');
  const orders = toHtml(renderOperation(doc, 'post', '/orders', ctx) as never);
  t.regex(orders, /https:\/\/api.example.com\/v2/);
  t.regex(orders, /field-name">qty</);
  t.regex(orders, /field-name">dry<\/code><span class="enclave-field-tag enclave-field-type">boolean/);
  t.regex(orders, /Basic &#x3C;encoded-value>/);
  t.regex(orders, /\?dry=%3Cdry%3E/);
  const upload = toHtml(renderOperation(doc, 'post', '/upload', ctx) as never);
  t.regex(upload, /multipart\/form-data/);
  t.regex(upload, /field-name">file<\/code><span class="enclave-field-tag enclave-field-type">string&#x3C;binary>/);
  t.regex(upload, /--form 'file=@example-file'/);
  t.deepEqual(ctx.warnings, []);
});
