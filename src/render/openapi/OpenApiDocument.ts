/** A JSON value as found in a spec. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object from a spec. */
export type JsonObject = { [key: string]: Json };

/** A loaded OpenAPI document with every `$ref` made absolute so it resolves without context. */
export interface OpenApiDocument {
  /** The ref the docs used for it (docs.json `openapi`, frontmatter), as passed to the loader. */
  ref: string;
  /** Absolute path of the main file. */
  file: string;
  /** `3.1`, `3.0` or `2.0` (Swagger, converted to the 3.x shape on load). */
  version: string;
  /** The main document, in OpenAPI 3.x shape. */
  spec: JsonObject;
  /** Every loaded file by absolute path (main file included); `$ref`s read `<file>#<pointer>`. */
  files: Map<string, Json>;
}

/** One operation as listed for navigation and page generation. */
export interface OpenApiOperationSummary {
  /** Lower-case HTTP method, or `webhook` for an entry of `webhooks`. */
  method: string;
  /** The path template (or the webhook's name). */
  path: string;
  summary?: string;
  operationId?: string;
  tags?: string[];
  deprecated?: boolean;
  /** `x-mint: { href }`: the URL its generated page takes instead of the derived one. */
  href?: string;
  /** `x-mint: { groups }`: the reader groups its generated page is limited to (reader sign-in). */
  groups?: string[];
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
