import type { ElementContent, RenderContext } from '../types.js';
import { el } from '../components/buildElement.js';
import { buildFieldRow } from '../components/buildFieldRow.js';
import { Expandable } from '../components/Expandable.js';
import { isObject, type Json, type JsonObject, type OpenApiDocument } from './OpenApiDocument.js';
import { mergeSchema } from './mergeSchema.js';
import { schemaTypeLabel } from './schemaTypeLabel.js';
import { renderDescription } from './renderDescription.js';
import { fieldAnchor } from '../components/componentAnchors.js';

/** Nesting deeper than this is cut off (real specs rarely go past 5; recursion is caught separately). */
const MAX_DEPTH = 8;
/** Properties shown per object, so a huge generated schema can't produce a huge page. */
const MAX_PROPERTIES = 300;

/** Where a schema is shown: request bodies hide `readOnly` properties, responses hide `writeOnly`. */
export interface SchemaView {
  mode: 'request' | 'response';
  ctx: RenderContext;
  depth: number;
  /** Refs of the schemas we are inside, to stop at recursion. */
  seen: string[];
  /** Anchor of the enclosing field (`body`, `response`, `body-user`): a property's is this plus its name. */
  anchor?: string;
}

const show = (v: Json | undefined): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** True when a schema has something worth unfolding (properties, object items, variants). */
function hasChildren(doc: OpenApiDocument, schema: JsonObject, depth = 0): boolean {
  if (isObject(schema.properties) && Object.keys(schema.properties).length > 0) return true;
  const variants = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  // `anyOf: [string, null]` is just a nullable string: only variants with structure are worth unfolding.
  if (depth < 4 && variants.some((v) => hasChildren(doc, mergeSchema(doc, v).schema, depth + 1))) return true;
  if (schema.items !== undefined && depth < 4) return hasChildren(doc, mergeSchema(doc, schema.items).schema, depth + 1);
  return false;
}

function propertyRow(doc: OpenApiDocument, name: string, node: Json, required: boolean, view: SchemaView): ElementContent | null {
  const merged = mergeSchema(doc, node);
  const s = merged.schema;
  if ((view.mode === 'request' && s.readOnly === true) || (view.mode === 'response' && s.writeOnly === true)) return null;
  const body: ElementContent[] = [...renderDescription(s.description ?? s.title, view.ctx)];
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    body.push(
      el('p', { className: ['enclave-api-enum'] }, [
        'Available options: ',
        ...s.enum.slice(0, 50).flatMap((v, i) => [i > 0 ? ', ' : '', el('code', {}, show(v))]),
      ]),
    );
  }
  if (s.const !== undefined) body.push(el('p', { className: ['enclave-api-enum'] }, ['Allowed value: ', el('code', {}, show(s.const))]));
  if (s.example !== undefined && !isObject(s.example) && !Array.isArray(s.example)) {
    body.push(el('p', { className: ['enclave-api-enum'] }, ['Example: ', el('code', {}, show(s.example))]));
  }
  // An array of the schema we're inside (e.g. `friends: Pet[]` in Pet) is recursive too.
  const itemRefs = s.items !== undefined ? mergeSchema(doc, s.items).refs : [];
  const recursive = [...merged.refs, ...itemRefs].some((r) => view.seen.includes(r));
  const anchor = view.anchor ? `${view.anchor}-${fieldAnchor({}, name) ?? ''}`.replace(/-$/, '') : undefined;
  if (!recursive && view.depth < MAX_DEPTH && hasChildren(doc, s)) {
    const inner = renderSchemaFields(doc, node, { ...view, depth: view.depth + 1, seen: [...view.seen, ...merged.refs], anchor });
    if (inner.length > 0) {
      const nested = Expandable({ title: 'child attributes' }, inner, view.ctx);
      body.push(...(Array.isArray(nested) ? nested : [nested]));
    }
  }
  return buildFieldRow(
    {
      name,
      type: schemaTypeLabel(doc, node) + (recursive ? ' (recursive)' : ''),
      required,
      deprecated: s.deprecated === true,
      default: s.default === undefined ? undefined : show(s.default),
      body,
      anchor,
    },
    view.ctx.text,
  );
}

/** A schema as documented fields: an object's properties as rows (nested ones inside Expandables), arrays by their items, variants as options. */
export function renderSchemaFields(doc: OpenApiDocument, node: Json | undefined, view: SchemaView): ElementContent[] {
  const merged = mergeSchema(doc, node);
  if (merged.unresolved) return [el('p', {}, ['Schema defined in ', el('code', {}, merged.unresolved), ' (not available offline).'])];
  const s = merged.schema;
  const seen = [...view.seen, ...merged.refs];
  const variants = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  const out: ElementContent[] = [];
  if (isObject(s.properties)) {
    const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);
    for (const [name, prop] of Object.entries(s.properties).slice(0, MAX_PROPERTIES)) {
      const row = propertyRow(doc, name, prop, required.has(name), { ...view, seen });
      if (row) out.push(row);
    }
  } else if (s.items !== undefined && view.depth < MAX_DEPTH) {
    const items = mergeSchema(doc, s.items);
    if (!items.refs.some((r) => seen.includes(r))) out.push(...renderSchemaFields(doc, s.items, { ...view, depth: view.depth + 1, seen }));
  }
  if (variants && view.depth < MAX_DEPTH && variants.some((v) => hasChildren(doc, mergeSchema(doc, v).schema))) {
    variants.slice(0, 50).forEach((variant, i) => {
      const v = mergeSchema(doc, variant);
      if (v.refs.some((r) => seen.includes(r))) return;
      const label = (typeof v.schema.title === 'string' && v.schema.title) || v.name || schemaTypeLabel(doc, variant);
      const inner = [
        ...renderDescription(v.schema.description, view.ctx),
        ...renderSchemaFields(doc, variant, { ...view, depth: view.depth + 1, seen }),
      ];
      const option = Expandable({ title: `option ${i + 1}: ${label}` }, inner, view.ctx);
      out.push(...(Array.isArray(option) ? option : [option]));
    });
  }
  return out;
}
