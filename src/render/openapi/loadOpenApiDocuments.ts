import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ReportCollector } from '../types.js';
import { isObject, type Json, type JsonObject, type OpenApiDocument } from './OpenApiDocument.js';
import { findLocalSpecCopy } from './findLocalSpecCopy.js';
import { normalizeSwagger2 } from './normalizeSwagger2.js';

/** Spec files larger than this are refused (a real API spec is far smaller). */
const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** At most this many files (main + referenced) per document. */
const MAX_FILES = 200;

const isRemote = (ref: string): boolean => /^https?:\/\//i.test(ref);

/** Parses JSON or YAML by content (YAML is a superset, but JSON.parse is much faster when it applies). */
function parseSpec(text: string): Json {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text) as Json;
    } catch {
      // fall through: YAML flow syntax also starts with `{`
    }
  }
  return parseYaml(text, { maxAliasCount: 1000 }) as Json;
}

/** Loads one document and the local files it references, making every `$ref` absolute. */
// size: one walk over a document and the files it references, sharing the seen set and the base path
async function loadDocument(
  ref: string,
  sourceDir: string,
  report: ReportCollector,
  localFiles: readonly string[],
): Promise<OpenApiDocument | undefined> {
  const root = path.resolve(sourceDir);
  const inside = (p: string): boolean => p === root || p.startsWith(root + path.sep);
  const files = new Map<string, Json>();
  const pending: string[] = [];
  const visited = new WeakSet<object>();

  const readSpecFile = async (file: string): Promise<Json | undefined> => {
    const info = await stat(file);
    if (info.size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES} bytes`);
    return parseSpec(await readFile(file, 'utf8'));
  };

  // Rewrites `$ref`s under `node` (from `file`) to `<abs file>#<pointer>` and queues referenced files.
  const rewrite = (node: Json, file: string): void => {
    const stack: Json[] = [node];
    while (stack.length > 0) {
      const cur = stack.pop();
      if (typeof cur !== 'object' || cur === null || visited.has(cur)) continue;
      visited.add(cur);
      if (Array.isArray(cur)) {
        stack.push(...cur);
        continue;
      }
      const r = cur.$ref;
      if (typeof r === 'string') {
        if (isRemote(r)) {
          report.warning(`OpenAPI ${ref}: remote $ref ${r} is not fetched (offline export)`);
          report.externalUrl(ref, r);
        } else {
          const hash = r.indexOf('#');
          const filePart = hash < 0 ? r : r.slice(0, hash);
          const pointer = hash < 0 ? '' : r.slice(hash + 1);
          const target = filePart === '' ? file : path.resolve(path.dirname(file), decodeURI(filePart));
          if (!inside(target)) {
            report.warning(`OpenAPI ${ref}: $ref ${r} points outside the docs folder and is ignored`);
          } else {
            cur.$ref = `${target}#${pointer}`;
            if (!files.has(target) && !pending.includes(target)) pending.push(target);
          }
        }
      }
      for (const v of Object.values(cur)) if (typeof v === 'object' && v !== null) stack.push(v);
    }
  };

  const local = isRemote(ref) ? findLocalSpecCopy(ref, localFiles) : ref;
  if (local === undefined) {
    report.warning(
      `OpenAPI spec ${ref} is remote and can't be fetched offline, and the source has no local copy of it (see README: OpenAPI specs); its pages are skipped`,
    );
    report.externalUrl(ref, ref);
    return undefined;
  }
  const main = path.resolve(root, local.replace(/^\/+/, ''));
  if (!inside(main)) {
    report.warning(`OpenAPI spec ${ref} is outside the docs folder`);
    return undefined;
  }
  let spec: Json | undefined;
  try {
    spec = await readSpecFile(main);
  } catch (err) {
    report.warning(`OpenAPI spec ${ref} could not be read: ${(err as Error).message}`);
    return undefined;
  }
  if (!isObject(spec) || (typeof spec.openapi !== 'string' && typeof spec.swagger !== 'string')) {
    report.warning(`OpenAPI spec ${ref} is not an OpenAPI or Swagger document`);
    return undefined;
  }
  const version = typeof spec.openapi === 'string' ? spec.openapi.split('.').slice(0, 2).join('.') : '2.0';
  const shaped: JsonObject = version === '2.0' ? normalizeSwagger2(spec) : spec;
  files.set(main, shaped);
  rewrite(shaped, main);
  while (pending.length > 0) {
    const next = pending.shift() as string;
    if (files.has(next)) continue;
    if (files.size >= MAX_FILES) {
      report.warning(`OpenAPI ${ref}: more than ${MAX_FILES} referenced files; the rest are ignored`);
      break;
    }
    try {
      const content = await readSpecFile(next);
      files.set(next, content ?? null);
      if (content !== undefined) rewrite(content, next);
    } catch (err) {
      files.set(next, null);
      report.warning(`OpenAPI ${ref}: referenced file ${path.relative(root, next)} could not be read: ${(err as Error).message}`);
    }
  }
  return { ref, file: main, version, spec: shaped, files };
}

/**
 * Loads the OpenAPI files the docs name (YAML or JSON; 3.1, 3.0, Swagger 2.0), keyed by the ref as
 * given. Remote specs are never fetched: they load from their local copy among `localFiles` (the
 * source's files, see findLocalSpecCopy) or are reported.
 */
export async function loadOpenApiDocuments(
  sourceDir: string,
  refs: string[],
  report: ReportCollector,
  localFiles: readonly string[] = [],
): Promise<Map<string, OpenApiDocument>> {
  const out = new Map<string, OpenApiDocument>();
  for (const ref of new Set(refs)) {
    const doc = await loadDocument(ref, sourceDir, report, localFiles);
    if (doc) out.set(ref, doc);
  }
  return out;
}
