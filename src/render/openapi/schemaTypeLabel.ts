import { isObject, type Json, type OpenApiDocument } from './OpenApiDocument.js';
import { mergeSchema } from './mergeSchema.js';

/** A short type label such as `string`, `integer<int64>`, `Plant[]`, `string | null`. */
export function schemaTypeLabel(doc: OpenApiDocument, node: Json | undefined, depth = 0): string {
  const { schema, unresolved } = mergeSchema(doc, node);
  if (unresolved) return 'object';
  if (depth > 6) return 'any';
  const variants = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (variants) return [...new Set(variants.map((v) => schemaTypeLabel(doc, v, depth + 1)))].join(' | ') || 'any';
  let types = Array.isArray(schema.type)
    ? schema.type.filter((t): t is string => typeof t === 'string')
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  if (types.length === 0)
    types = isObject(schema.properties) ? ['object'] : schema.items !== undefined ? ['array'] : schema.enum ? ['enum'] : [];
  const labels = types.map((t) => {
    if (t === 'array') return `${schemaTypeLabel(doc, schema.items, depth + 1)}[]`;
    if (typeof schema.format === 'string' && t !== 'object') return `${t}<${schema.format}>`;
    return t;
  });
  if (schema.nullable === true && !labels.includes('null')) labels.push('null');
  return labels.join(' | ') || 'any';
}
