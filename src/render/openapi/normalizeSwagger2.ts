import { isObject, type Json, type JsonObject } from './OpenApiDocument.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** Swagger 2.0 parameter facts that belong in a 3.x `schema`. */
const SCHEMA_KEYS = [
  'type',
  'format',
  'items',
  'enum',
  'default',
  'minimum',
  'maximum',
  'pattern',
  'minLength',
  'maxLength',
  'collectionFormat',
];

function convertOperation(op: JsonObject, consumes: string[], produces: string[]): JsonObject {
  const out: JsonObject = { ...op };
  const params = Array.isArray(op.parameters) ? op.parameters.filter(isObject) : [];
  const kept: Json[] = [];
  const form: JsonObject = {};
  const formRequired: string[] = [];
  for (const p of params) {
    if (p.in === 'body') {
      const types = Array.isArray(op.consumes) ? op.consumes.filter((c): c is string => typeof c === 'string') : consumes;
      const content: JsonObject = {};
      for (const t of types.length > 0 ? types : ['application/json']) content[t] = { schema: p.schema ?? {} };
      out.requestBody = { description: p.description ?? '', required: p.required ?? false, content };
    } else if (p.in === 'formData') {
      const schema: JsonObject = { description: p.description ?? '' };
      for (const k of SCHEMA_KEYS) if (p[k] !== undefined) schema[k] = p[k];
      if (p.type === 'file') Object.assign(schema, { type: 'string', format: 'binary' });
      if (typeof p.name === 'string') {
        form[p.name] = schema;
        if (p.required === true) formRequired.push(p.name);
      }
    } else if (p.$ref !== undefined) {
      kept.push(p);
    } else {
      const schema: JsonObject = {};
      for (const k of SCHEMA_KEYS) if (p[k] !== undefined) schema[k] = p[k];
      const rest: JsonObject = {};
      for (const [k, v] of Object.entries(p)) if (!SCHEMA_KEYS.includes(k)) rest[k] = v;
      kept.push({ ...rest, schema });
    }
  }
  if (Object.keys(form).length > 0) {
    const multipart = params.some((p) => p.type === 'file') ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
    out.requestBody = { content: { [multipart]: { schema: { type: 'object', properties: form, required: formRequired } } } };
  }
  out.parameters = kept;
  if (isObject(op.responses)) {
    const responses: JsonObject = {};
    const types = Array.isArray(op.produces) ? op.produces.filter((c): c is string => typeof c === 'string') : produces;
    for (const [status, r] of Object.entries(op.responses)) {
      if (!isObject(r) || r.$ref !== undefined || r.schema === undefined) {
        responses[status] = r;
        continue;
      }
      const content: JsonObject = {};
      const examples = isObject(r.examples) ? r.examples : {};
      for (const t of types.length > 0 ? types : ['application/json']) {
        content[t] = examples[t] !== undefined ? { schema: r.schema, example: examples[t] } : { schema: r.schema };
      }
      responses[status] = { description: r.description ?? '', headers: r.headers ?? {}, content };
    }
    out.responses = responses;
  }
  return out;
}

/** Converts a Swagger 2.0 document to the OpenAPI 3.x shape the renderer reads (best effort; `#/definitions/…` refs stay valid). */
export function normalizeSwagger2(spec: JsonObject): JsonObject {
  const schemes = Array.isArray(spec.schemes) && spec.schemes.length > 0 ? spec.schemes : ['https'];
  const host = typeof spec.host === 'string' ? spec.host : '';
  const basePath = typeof spec.basePath === 'string' ? spec.basePath : '';
  const servers = host ? schemes.map((s) => ({ url: `${String(s)}://${host}${basePath}` })) : basePath ? [{ url: basePath }] : [];
  const consumes = Array.isArray(spec.consumes) ? spec.consumes.filter((c): c is string => typeof c === 'string') : [];
  const produces = Array.isArray(spec.produces) ? spec.produces.filter((c): c is string => typeof c === 'string') : [];
  const paths: JsonObject = {};
  for (const [p, item] of Object.entries(isObject(spec.paths) ? spec.paths : {})) {
    if (!isObject(item)) continue;
    const converted: JsonObject = { ...item };
    for (const m of METHODS) if (isObject(item[m])) converted[m] = convertOperation(item[m] as JsonObject, consumes, produces);
    paths[p] = converted;
  }
  const securitySchemes: JsonObject = {};
  for (const [name, s] of Object.entries(isObject(spec.securityDefinitions) ? spec.securityDefinitions : {})) {
    if (!isObject(s)) continue;
    securitySchemes[name] = s.type === 'basic' ? { ...s, type: 'http', scheme: 'basic' } : s;
  }
  const components = isObject(spec.components) ? spec.components : {};
  return { ...spec, openapi: '3.0.0', servers, paths, components: { ...components, securitySchemes } };
}
