import { isObject, type JsonObject, type OpenApiDocument } from './OpenApiDocument.js';
import { HTTP_METHODS } from './listOperations.js';
import { resolveRef } from './resolveRef.js';

/** A located operation: the document it lives in, and its method (`webhook` for webhooks) and path. */
export interface FoundOperation {
  doc: OpenApiDocument;
  method: string;
  path: string;
  operation: JsonObject;
  /** For webhooks, the HTTP method the webhook is delivered with. */
  httpMethod: string;
  /** Parameters declared on the path item, shared by its operations. */
  pathItem: JsonObject;
}

/** Paths compare equal ignoring a trailing slash and the names of `{params}`. */
function samePath(a: string, b: string): boolean {
  const norm = (p: string) => p.replace(/\/+$/, '').replace(/\{[^}]*\}/g, '{}') || '/';
  return a === b || norm(a) === norm(b);
}

/** Finds `METHOD /path` (or `WEBHOOK name`) in a document or a set of documents. */
export function findOperation(
  docs: OpenApiDocument | Iterable<OpenApiDocument> | Map<string, OpenApiDocument>,
  method: string,
  path: string,
): FoundOperation | undefined {
  const list: Iterable<OpenApiDocument> =
    docs instanceof Map ? docs.values() : 'spec' in (docs as object) ? [docs as OpenApiDocument] : (docs as Iterable<OpenApiDocument>);
  const m = method.toLowerCase();
  for (const doc of list) {
    const section = m === 'webhook' ? doc.spec.webhooks : doc.spec.paths;
    if (!isObject(section)) continue;
    for (const [p, rawItem] of Object.entries(section)) {
      if (!samePath(p, path)) continue;
      const item = resolveRef(doc, rawItem).value;
      if (!isObject(item)) continue;
      const httpMethod = m === 'webhook' ? HTTP_METHODS.find((x) => isObject(item[x])) : m;
      const op = httpMethod ? item[httpMethod] : undefined;
      if (isObject(op) && httpMethod) return { doc, method: m, path: p, operation: op, httpMethod, pathItem: item };
    }
  }
  return undefined;
}
