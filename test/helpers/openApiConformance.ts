import type OpenAPIBackend from 'openapi-backend';

/**
 * The check every API test's responses go through (issue 31): each response from an admin
 * path must be one `/openapi.json` lists for its operation (status and content type) and, when
 * JSON, must match the documented schema. The document is the one the appliance under test
 * serves, read once per base URL and validated with openapi-backend (Ajv with formats). A
 * mismatch throws where the test made the request, naming the operation and the drift.
 */

const ADMIN_PATH = /^\/(?:v1|v2|bundles|_enclave|openapi\.json)(?:\/|$)/;
/** Served beside the API, not part of it: the dashboard's pages and the feedback script. */
const NOT_API = /^\/_enclave\/(?:admin|assets)(?:\/|$)/;

type Api = InstanceType<typeof OpenAPIBackend.OpenAPIBackend>;
/** The document each base URL serves, read once per appliance. */
const documents = new Map<string, Promise<Api | null>>();
/**
 * Validators by document text. Building one (Ajv compiling every schema) cost 0.1–0.2 s of CPU,
 * paid again by each appliance a test file started although they nearly all serve the same
 * document; the same text gives the same validator, so it is built once per test process.
 */
const backends = new Map<string, Promise<Api>>();

async function backendFor(text: string): Promise<Api> {
  let backend = backends.get(text);
  if (!backend) {
    backend = (async () => {
      // Loaded at the first admin response checked, not when a test file imports the helpers
      // (~0.15 s of CPU): many files start an appliance without calling the admin API.
      const [{ default: openApiBackend }, { default: addFormats }] = await Promise.all([import('openapi-backend'), import('ajv-formats')]);
      const api = new openApiBackend.OpenAPIBackend({
        definition: JSON.parse(text) as never,
        // `quick` skips its document check, which knows OpenAPI 3.0 only (it refuses 3.1's
        // `const`); the responses are what this checks, with the schemas as JSON Schema.
        quick: true,
        customizeAjv: (ajv) => {
          addFormats.default(ajv, ['date-time', 'uri', 'email', 'date']);
          return ajv;
        },
      });
      await api.init();
      return api;
    })();
    backends.set(text, backend);
  }
  return backend;
}

async function documentOf(baseUrl: string): Promise<Api | null> {
  let api = documents.get(baseUrl);
  if (!api) {
    api = (async () => {
      const res = await fetch(`${baseUrl}/openapi.json`);
      // A listener that serves no API (a site-only port) has nothing to check against.
      if (res.status !== 200) return null;
      return backendFor(await res.text());
    })();
    documents.set(baseUrl, api);
  }
  return api;
}

/** Describes the path of a request without its query (for messages). */
function describe(method: string, url: URL): string {
  return `${method} ${url.pathname}`;
}

/**
 * Checks `res` (to `method` `url`) against the appliance's own OpenAPI document; throws on drift.
 * The response is cloned, so the caller still reads its body.
 */
export async function checkAgainstOpenApi(baseUrl: string, method: string, url: URL, res: Response): Promise<void> {
  // OPTIONS is CORS preflight (feedback's middleware), not an operation of the API.
  if (method === 'OPTIONS' || !ADMIN_PATH.test(url.pathname) || NOT_API.test(url.pathname)) return;
  const api = await documentOf(baseUrl);
  if (!api) return;
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const text = method === 'HEAD' || res.status === 204 || res.status === 304 ? '' : await res.clone().text();
  const body = type === 'application/json' && text ? (JSON.parse(text) as unknown) : undefined;
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // HEAD is answered as GET without the body (HTTP semantics; koa-router does so for every GET).
  const asMethod = method === 'HEAD' ? 'GET' : method;
  const operation = api.matchOperation({ method: asMethod, path: url.pathname, headers, query: url.search.slice(1) });
  if (!operation) {
    // An unknown route: the JSON 404 every admin path answers ({ error }).
    const isJson404 = res.status === 404 && type === 'application/json' && typeof (body as { error?: unknown })?.error === 'string';
    const isJson405 = res.status === 405 && type === 'application/json';
    if (!isJson404 && !isJson405)
      throw new Error(`OpenAPI drift: ${describe(method, url)} is no documented operation, yet answered ${res.status} ${type}`);
    return;
  }
  const documented = operation.responses?.[String(res.status)] as { content?: Record<string, unknown> } | undefined;
  if (!documented)
    throw new Error(
      `OpenAPI drift: ${operation.operationId} (${describe(method, url)}) answered ${res.status}, which /openapi.json does not list`,
    );
  if (documented.content && type && !(type in documented.content))
    throw new Error(
      `OpenAPI drift: ${operation.operationId} answered ${res.status} as ${type}; documented: ${Object.keys(documented.content).join(', ')}`,
    );
  if (body === undefined) return;
  const result = api.validateResponse(body, operation, res.status);
  if (result.errors?.length)
    throw new Error(
      `OpenAPI drift: ${operation.operationId} answered ${res.status} with a body the document does not allow: ${JSON.stringify(result.errors.slice(0, 5))}\nbody: ${text.slice(0, 500)}`,
    );
}
