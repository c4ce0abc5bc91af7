import { isObject, type Json, type OpenApiDocument } from './OpenApiDocument.js';

/** Follows a JSON pointer (`/components/schemas/Pet`) inside a value. */
function followPointer(root: Json, pointer: string): Json | undefined {
  if (pointer === '' || pointer === '/') return root;
  let cur: Json | undefined = root;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) cur = cur[Number(key)];
    else if (isObject(cur)) cur = cur[key];
    else return undefined;
  }
  return cur;
}

/** A node with its `$ref` chain followed (bounded), the last ref name seen, and whether it could be resolved. */
export function resolveRef(
  doc: OpenApiDocument,
  node: Json | undefined,
): { value: Json | undefined; refName?: string; ref?: string; unresolved?: string } {
  let cur = node;
  let refName: string | undefined;
  let ref: string | undefined;
  for (let i = 0; i < 32 && isObject(cur) && typeof cur.$ref === 'string'; i++) {
    ref = cur.$ref;
    const hash = ref.indexOf('#');
    if (hash < 0 || /^https?:/i.test(ref)) return { value: undefined, unresolved: ref };
    const file = ref.slice(0, hash);
    const pointer = ref.slice(hash + 1);
    refName = pointer.split('/').pop() || refName;
    const root = doc.files.get(file);
    const next = root === undefined || root === null ? undefined : followPointer(root, pointer);
    if (next === undefined) return { value: undefined, unresolved: ref };
    cur = next;
  }
  return { value: cur, refName, ref };
}
