import { isObject, type Json, type OpenApiDocument } from './OpenApiDocument.js';
import { mergeSchema } from './mergeSchema.js';

/** Placeholder values by string format, like the hosted product's generated examples. */
const STRING_FORMATS: Record<string, string> = {
  'date-time': '2023-11-07T05:31:56Z',
  date: '2023-12-25',
  time: '12:00:00',
  email: 'jsmith@example.com',
  uuid: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
  uri: 'https://example.com',
  url: 'https://example.com',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  binary: '<binary>',
  byte: 'aSDinaTvuI8gbWludGxpZnk=',
};

/** An example value for a schema: its own example/default/enum first, else one generated from the types (bounded depth, no recursion). */
export function exampleFromSchema(doc: OpenApiDocument, node: Json | undefined, depth = 0, seen: string[] = []): Json {
  const { schema: s, refs, unresolved } = mergeSchema(doc, node);
  if (unresolved || depth > 8 || refs.some((r) => seen.includes(r))) return {};
  const inner = [...seen, ...refs];
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const variants = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (variants && variants.length > 0) return exampleFromSchema(doc, variants[0], depth + 1, inner);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || isObject(s.properties)) {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(isObject(s.properties) ? s.properties : {}).slice(0, 100)) {
      out[k] = exampleFromSchema(doc, v, depth + 1, inner);
    }
    return out;
  }
  if (type === 'array' || s.items !== undefined) return [exampleFromSchema(doc, s.items, depth + 1, inner)];
  if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? s.minimum : 123;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  if (type === 'string') return (typeof s.format === 'string' && STRING_FORMATS[s.format]) || '<string>';
  return {};
}
