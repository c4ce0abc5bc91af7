import type { Element, ElementContent } from 'hast';
import { HastFragment } from '../mdx/evaluateEstree.js';
import type { DocsFunction, PageIslands } from './PageIslands.js';
import type { ModuleLoader } from '../mdx/ModuleLoader.js';
import { browserNeeds } from './browserNeeds.js';
import { type CompiledIslandModule, compileIslandModule } from './compileIslandModule.js';
import { referencedIdentifiers } from './referencedIdentifiers.js';
import { moduleSourceOf, type ModuleSource } from './moduleSources.js';

/** Props that cross into the browser as JSON; JSX-valued props and children go as markup. */
function serialisable(value: unknown, depth = 0): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (depth > 20 || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.every((v) => serialisable(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value as object).every((v) => serialisable(v, depth + 1));
}

/** The name a module gives a function at its top level (or as an export). */
function bindingName(mod: ModuleSource, fn: DocsFunction): string | undefined {
  for (const [k, v] of mod.scope) if (v === fn) return k;
  for (const [k, v] of mod.exports) if (v === fn) return k;
  return undefined;
}

/** Build-time markup for the runtime to pass as a prop: `children` when `prop` is empty. */
const template = (prop: string, nodes: ElementContent[]): Element => ({
  type: 'element',
  tagName: 'template',
  properties: prop ? { dataEnclaveProp: prop } : { dataEnclaveChildren: '' },
  children: nodes,
});

/** A component's props as JSON plus markup templates, or why they can't reach the browser. */
function splitProps(props: Record<string, unknown>): { json: Record<string, unknown>; markup: Element[] } | string {
  const json: Record<string, unknown> = {};
  const markup: Element[] = [];
  for (const [k, v] of Object.entries(props)) {
    if (k === 'children') continue;
    if (v instanceof HastFragment) markup.push(template(k, v.nodes));
    else if (serialisable(v)) json[k] = v;
    else return `its prop ${k} is not plain data`;
  }
  return { json, markup };
}

/** Compiles docs modules once per render (pages share snippets), each with the modules it imports. */
function moduleCompiler(loader: ModuleLoader): (file: string, source: string, into: Map<string, string>) => CompiledIslandModule {
  const compiled = new Map<string, CompiledIslandModule | Error>();
  const compile = (file: string, source: string): CompiledIslandModule => {
    let hit = compiled.get(file);
    if (!hit) {
      try {
        hit = compileIslandModule(source, (spec) => loader.resolveSpecifier(spec, file));
      } catch (err) {
        hit = new Error((err as Error).message);
      }
      compiled.set(file, hit);
    }
    if (hit instanceof Error) throw hit;
    return hit;
  };
  const collect = (file: string, source: string, into: Map<string, string>, depth = 0): CompiledIslandModule => {
    const mod = compile(file, source);
    if (into.has(file)) return mod;
    if (depth > 16) throw new Error('its imports nest too deeply');
    into.set(file, mod.factory);
    for (const dep of mod.imports) {
      // An import that can't run is left out: the runtime gives it no bindings, so only the
      // components that use it fail (each reported where it is used), not the whole module.
      try {
        collect(dep, loader.load(dep).source ?? '', into, depth + 1);
      } catch {}
    }
    return mod;
  };
  return collect;
}

/** The inline script registering a page's island modules: no module loading, so it runs from file://. */
function moduleScript(modules: Map<string, string>): string | null {
  if (modules.size === 0) return null;
  const entries = [...modules].map(([file, factory]) => `m[${JSON.stringify(file)}] = ${factory};`);
  const body = `(function (m) {\n${entries.join('\n')}\n})(window.__enclaveIslandModules = window.__enclaveIslandModules || {});`;
  // `</` can't end the script early.
  return `<script>${body.replace(/<\//g, '<\\/')}</script>`;
}

/**
 * Site-wide: hands each page its island collector. Islands are the hosted product's live React
 * components made to run offline: the component's own code, JSX compiled to calls, rendered
 * over its static first render by the bundled Preact.
 */
export function createIslandCompiler(loader: ModuleLoader): { forPage(): PageIslands } {
  const collect = moduleCompiler(loader);
  const forPage = (): PageIslands => {
    const modules = new Map<string, string>();
    const prepare: PageIslands['prepare'] = (name, fn, props, warn) => {
      const needs = browserNeeds(fn.body);
      if (needs.length === 0) return null;
      const cannot = (why: string) => {
        warn(`component ${name} cannot run in the browser: ${why}; its static render is shown`);
        return null;
      };
      const mod = moduleSourceOf(fn.scope);
      if (!mod) return cannot('it is not defined at the top level of a page or snippet');
      const exportName = bindingName(mod, fn);
      if (!exportName) return cannot('its definition could not be found');
      const split = splitProps(props);
      if (typeof split === 'string') return cannot(split);
      const pending = new Map<string, string>();
      let compiled: CompiledIslandModule;
      try {
        compiled = collect(mod.file, mod.source, pending);
      } catch (err) {
        return cannot((err as Error).message);
      }
      const used = referencedIdentifiers(fn.body);
      const missing = [...compiled.unavailable].find(([local]) => used.has(local));
      if (missing) return cannot(`it uses ${missing[0]}, imported from "${missing[1]}", which is not in the bundle`);
      // Only an island that will run ships its modules: a page whose components can't has no runtime.
      for (const [file, factory] of pending) modules.set(file, factory);
      const properties = {
        dataModule: mod.file,
        dataName: exportName,
        dataProps: JSON.stringify(split.json),
        dataNeeds: needs.join(', '),
        style: 'display:contents',
      };
      // Children and JSX props go as markup (links resolved with the page's), then the first render.
      return (staticOut, children) => ({
        type: 'element',
        tagName: 'enclave-island',
        properties,
        children: [...(children.length > 0 ? [template('', children)] : []), ...split.markup, ...staticOut],
      });
    };
    return { prepare, script: () => moduleScript(modules) };
  };
  return { forPage };
}
