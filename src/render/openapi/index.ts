/** The OpenAPI part of the renderer: load specs, list and find operations, render API pages. */
export type { OpenApiDocument, OpenApiOperationSummary, Json, JsonObject } from './OpenApiDocument.js';
export { loadOpenApiDocuments } from './loadOpenApiDocuments.js';
export { listOperations } from './listOperations.js';
export { findOperation, type FoundOperation } from './findOperation.js';
export { renderOperation, type RenderOperationOptions } from './renderOperation.js';
