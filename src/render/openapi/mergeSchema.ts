import { isObject, type Json, type JsonObject, type OpenApiDocument } from './OpenApiDocument.js';
import { resolveRef } from './resolveRef.js';

/** A schema with refs followed and `allOf` folded in, plus the component name it came from. */
export interface MergedSchema {
  schema: JsonObject;
  name?: string;
  /** Refs on the way here, to spot recursive schemas. */
  refs: string[];
  unresolved?: string;
}

/** Resolves a schema's `$ref` and merges its `allOf` parts (properties and `required` united), bounded in depth. */
export function mergeSchema(doc: OpenApiDocument, node: Json | undefined, depth = 0): MergedSchema {
  const { value, refName, ref, unresolved } = resolveRef(doc, node);
  if (unresolved) return { schema: {}, refs: [], unresolved };
  if (!isObject(value)) return { schema: {}, name: refName, refs: ref ? [ref] : [] };
  const refs = ref ? [ref] : [];
  if (!Array.isArray(value.allOf) || depth > 16) return { schema: value, name: refName, refs };
  const merged: JsonObject = { ...value };
  delete merged.allOf;
  const properties: JsonObject = {};
  const required = new Set<string>();
  const addFrom = (s: JsonObject) => {
    if (isObject(s.properties)) Object.assign(properties, s.properties);
    if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === 'string') required.add(r);
  };
  for (const part of value.allOf) {
    const sub = mergeSchema(doc, part, depth + 1);
    refs.push(...sub.refs);
    for (const [k, v] of Object.entries(sub.schema)) if (k !== 'properties' && k !== 'required' && merged[k] === undefined) merged[k] = v;
    addFrom(sub.schema);
  }
  addFrom(value);
  if (Object.keys(properties).length > 0) {
    merged.properties = properties;
    merged.type ??= 'object';
  }
  if (required.size > 0) merged.required = [...required];
  return { schema: merged, name: refName, refs };
}
