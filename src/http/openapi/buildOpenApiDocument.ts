import { z } from 'zod';
import type { RouteSpec } from '../defineRoute.js';
import { errorBodySchema } from '../errorBodySchema.js';
import { impliedResponses } from './impliedResponses.js';

type JsonSchema = Record<string, unknown>;

/**
 * Conversions already made in this process, by schema and direction. Most route schemas are
 * module constants shared by every appliance a process starts (a test file starts many): each
 * converted once, the document of a later appliance costs a fraction of the first's ~0.1 s.
 * zod schemas are immutable and the document is only serialised, so sharing the result is safe.
 */
const converted = { input: new WeakMap<z.ZodType, JsonSchema>(), output: new WeakMap<z.ZodType, JsonSchema>() };

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  let json = converted[io].get(schema);
  if (!json) {
    json = convert(schema, io);
    converted[io].set(schema, json);
  }
  return json;
}

function convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    // zod leaves a `default` given in .meta() out; a parameter read from text (a query limit) has
    // no other way to state the default it gets when absent.
    override(ctx) {
      const meta = z.globalRegistry.get(ctx.zodSchema as unknown as z.ZodType) as { default?: unknown } | undefined;
      if (meta && 'default' in meta) ctx.jsonSchema.default = meta.default;
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** `/v2/agent/:projectId/job/:id` → `/v2/agent/{projectId}/job/{id}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parameters(spec: RouteSpec): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', spec.params],
    ['query', spec.query],
  ] as const) {
    if (!schema) continue;
    const json = toJsonSchema(schema, 'input');
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(properties)) {
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: prop,
        ...(prop.description ? { description: prop.description } : {}),
      });
    }
  }
  return out;
}

/**
 * Builds the OpenAPI 3.1 document from the same route specs that validate requests, so the
 * published contract and the server's behaviour can't drift.
 */
export function buildOpenApiDocument(routes: RouteSpec[], info: { version: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const spec of routes) {
    const responses: Record<string, JsonSchema> = {};
    for (const [status, response] of Object.entries(impliedResponses(spec))) {
      const isError = Number(status) >= 400;
      const schema = response.schema
        ? toJsonSchema(response.schema, 'output')
        : isError
          ? { $ref: '#/components/schemas/Error' }
          : undefined;
      responses[status] = {
        description: response.description,
        ...(schema
          ? { content: { [response.contentType ?? 'application/json']: { schema } } }
          : response.contentType
            ? { content: { [response.contentType]: {} } }
            : {}),
      };
    }
    const operation: JsonSchema = {
      summary: spec.summary,
      tags: [spec.tag],
      operationId: `${spec.method.toLowerCase()}${toOpenApiPath(spec.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      parameters: parameters(spec),
      responses,
      security: spec.auth === 'public' ? [] : [{ [`${spec.auth}Key`]: [] }],
    };
    if (spec.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: toJsonSchema(spec.body, 'input') } } };
    }
    (paths[toOpenApiPath(spec.path)] ??= {})[spec.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Enclave admin API',
      version: info.version,
      description: 'Self-hosted documentation appliance: static export, deployments, feedback analytics and agent jobs.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        adminKey: { type: 'http', scheme: 'bearer', description: 'Admin key: enc_ + 40 base62 characters + 6-character checksum.' },
        assistantKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            "Assistant key (POST /v1/keys with kind assistant): enc_asst_ + 40 base62 characters + 6-character checksum; only the search, page, assistant and MCP endpoints of its project's sites.",
        },
      },
      schemas: { Error: toJsonSchema(errorBodySchema, 'output') },
    },
  };
}
