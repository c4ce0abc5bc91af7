import { isObject, type JsonObject, type OpenApiDocument, type OpenApiOperationSummary } from './OpenApiDocument.js';
import { resolveRef } from './resolveRef.js';

/** HTTP methods an OpenAPI path item can hold, in display order. */
export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'];

function summarize(method: string, path: string, op: JsonObject): OpenApiOperationSummary {
  const tags = Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : undefined;
  return {
    method,
    path,
    summary: typeof op.summary === 'string' ? op.summary : undefined,
    operationId: typeof op.operationId === 'string' ? op.operationId : undefined,
    tags: tags && tags.length > 0 ? tags : undefined,
    deprecated: op.deprecated === true ? true : undefined,
    ...mintHref(op),
  };
}

/** `x-mint: { href, groups }` where the operation sets them (keys left out otherwise). */
function mintHref(op: JsonObject): { href?: string; groups?: string[] } {
  const mint = op['x-mint'];
  if (!isObject(mint)) return {};
  const href = typeof mint.href === 'string' ? mint.href.trim() : '';
  const groups = Array.isArray(mint.groups) ? mint.groups.filter((g): g is string => typeof g === 'string' && g.trim() !== '') : [];
  return { ...(href ? { href } : {}), ...(groups.length ? { groups: groups.map((g) => g.trim()) } : {}) };
}

/** Every operation of a document (paths, then `webhooks` as method `webhook`), skipping those marked `x-hidden`/`x-excluded`. */
export function listOperations(doc: OpenApiDocument): OpenApiOperationSummary[] {
  const out: OpenApiOperationSummary[] = [];
  const paths = isObject(doc.spec.paths) ? doc.spec.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = resolveRef(doc, rawItem).value;
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op) || op['x-hidden'] === true || op['x-excluded'] === true) continue;
      out.push(summarize(method, path, op));
    }
  }
  const webhooks = isObject(doc.spec.webhooks) ? doc.spec.webhooks : {};
  for (const [name, rawItem] of Object.entries(webhooks)) {
    const item = resolveRef(doc, rawItem).value;
    if (!isObject(item)) continue;
    const method = HTTP_METHODS.find((m) => isObject(item[m]));
    if (method) out.push(summarize('webhook', name, item[method] as JsonObject));
  }
  return out;
}
