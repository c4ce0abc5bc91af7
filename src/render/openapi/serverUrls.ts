import { isObject, type Json, type JsonObject, type OpenApiDocument } from './OpenApiDocument.js';

/** The servers an operation can be called on (its own, else its path's, else the document's), variables filled by their defaults. */
export function serverUrls(doc: OpenApiDocument, op: JsonObject, pathItem: JsonObject): string[] {
  const servers = [op.servers, pathItem.servers, doc.spec.servers].find((s) => Array.isArray(s) && s.length > 0) as Json[] | undefined;
  return (servers ?? []).filter(isObject).flatMap((server) => {
    if (typeof server.url !== 'string') return [];
    const vars = isObject(server.variables) ? server.variables : {};
    return [
      server.url
        .replace(/\{([^}]+)\}/g, (m, name: string) => {
          const v = vars[name];
          return isObject(v) && v.default !== undefined ? String(v.default) : m;
        })
        .replace(/\/+$/, ''),
    ];
  });
}
