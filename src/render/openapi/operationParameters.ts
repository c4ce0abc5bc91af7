import { isObject, type JsonObject, type OpenApiDocument } from './OpenApiDocument.js';
import { resolveRef } from './resolveRef.js';

/** Path-item and operation parameters merged (the operation's win), refs resolved. */
export function operationParameters(doc: OpenApiDocument, op: JsonObject, pathItem: JsonObject): JsonObject[] {
  const byKey = new Map<string, JsonObject>();
  for (const list of [pathItem.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const p = resolveRef(doc, raw).value;
      if (isObject(p) && typeof p.name === 'string') byKey.set(`${String(p.in)}:${p.name}`, p);
    }
  }
  return [...byKey.values()];
}
