import type { ElementContent, RenderContext, ReportCollector } from '../types.js';

/** A parsed OpenAPI document (placeholder shape). */
export type OpenApiDocument = Record<string, unknown>;

/** Loads OpenAPI files named by the docs (placeholder: loads nothing). */
export async function loadOpenApiDocuments(sourceDir: string, refs: string[], report: ReportCollector): Promise<Map<string, OpenApiDocument>> {
  void sourceDir; void refs; void report;
  return new Map();
}

/** Lists a document's operations (placeholder). */
export function listOperations(doc: OpenApiDocument): { method: string; path: string; summary?: string; operationId?: string; tags?: string[]; deprecated?: boolean }[] {
  void doc;
  return [];
}

/** Renders one operation's page body (placeholder). */
export function renderOperation(doc: OpenApiDocument, method: string, path: string, ctx: RenderContext): ElementContent[] {
  void doc; void ctx;
  return [{ type: 'element', tagName: 'p', properties: {}, children: [{ type: 'text', value: `${method.toUpperCase()} ${path}` }] }];
}
