import type { RenderContext, ElementContent } from '../types.js';
import { buildFieldRow } from '../components/buildFieldRow.js';
import { isObject, type JsonObject, type OpenApiDocument } from './OpenApiDocument.js';
import { resolveRef } from './resolveRef.js';
import { renderDescription } from './renderDescription.js';

/** How one security scheme shows up in a request. */
export interface AuthUse {
  name: string;
  location: 'header' | 'query' | 'cookie';
  placeholder: string;
  description?: string;
}

/** The credentials an operation needs (its own `security`, else the document's; first alternative only). */
export function securityUses(doc: OpenApiDocument, op: JsonObject): AuthUse[] {
  const requirements = Array.isArray(op.security) ? op.security : Array.isArray(doc.spec.security) ? doc.spec.security : [];
  const first = requirements.find(isObject);
  if (!first) return [];
  const schemes = isObject(doc.spec.components) && isObject(doc.spec.components.securitySchemes) ? doc.spec.components.securitySchemes : {};
  const out: AuthUse[] = [];
  for (const key of Object.keys(first)) {
    const scheme = resolveRef(doc, schemes[key]).value;
    if (!isObject(scheme)) continue;
    const description = typeof scheme.description === 'string' ? scheme.description : undefined;
    const type = String(scheme.type ?? '').toLowerCase();
    const httpScheme = String(scheme.scheme ?? '').toLowerCase();
    if (type === 'apikey') {
      const where = scheme.in === 'query' || scheme.in === 'cookie' ? scheme.in : 'header';
      out.push({ name: String(scheme.name ?? key), location: where, placeholder: '<api-key>', description });
    } else if (type === 'http' && httpScheme === 'basic') {
      out.push({
        name: 'Authorization',
        location: 'header',
        placeholder: 'Basic <encoded-value>',
        description:
          description ??
          'Basic authentication header of the form `Basic <encoded-value>`, where `<encoded-value>` is the base64-encoded string `username:password`.',
      });
    } else if (type === 'http' || type === 'oauth2' || type === 'openidconnect') {
      out.push({
        name: 'Authorization',
        location: 'header',
        placeholder: 'Bearer <token>',
        description: description ?? 'Bearer authentication header of the form `Bearer <token>`, where `<token>` is your auth token.',
      });
    }
  }
  return out;
}

/** The "Authorizations" rows for an operation. */
export function renderAuthRows(uses: AuthUse[], ctx: RenderContext): ElementContent[] {
  return uses.map((u) =>
    buildFieldRow(
      { name: u.name, type: 'string', location: u.location, required: true, body: renderDescription(u.description, ctx) },
      ctx.text,
    ),
  );
}
