import type * as ES from 'estree-jsx';
import { bindPattern, evaluateExpression, StaticFunction, Unevaluable, type EvalBudget, type EvalHooks } from './evaluateEstree.js';
import { recordModuleSource } from '../islands/moduleSources.js';
import { MissingImport, SnippetComponent, type LoadedModule, type ModuleLoader } from './ModuleLoader.js';

/** A module's top-level bindings (what its own content sees) and its exports (what importers see). */
export interface ModuleScope {
  scope: Map<string, unknown>;
  exports: Map<string, unknown>;
}

/** Per-page state for evaluating modules: results are cached per page because values may hold page-specific hast. */
export interface FeatureContext {
  loader: ModuleLoader;
  hooks: EvalHooks;
  budget: EvalBudget;
  warn(message: string): void;
  cache: Map<string, ModuleScope>;
}

const MAX_IMPORT_DEPTH = 16;

/** Evaluates a module's imports and `export const`/`export function` statements statically. */
// size: one case per module statement kind (import, export const, export function), sharing the module scope
export function evaluateModule(mod: Pick<LoadedModule, 'file' | 'statements' | 'source'>, mctx: FeatureContext, depth = 0): ModuleScope {
  const cached = mctx.cache.get(mod.file);
  if (cached) return cached;
  const result: ModuleScope = { scope: new Map(), exports: new Map() };
  // Registered before evaluation so an import cycle sees a (partial) module instead of recursing forever.
  mctx.cache.set(mod.file, result);
  if (mod.source) recordModuleSource({ file: mod.file, source: mod.source, scope: result.scope, exports: result.exports });
  const { scope, exports } = result;
  const evaluate = (node: ES.Node) => evaluateExpression(node, scope, mctx.hooks, mctx.budget);
  const declare = (decl: ES.Declaration, exported: boolean) => {
    if (decl.type === 'FunctionDeclaration' && decl.id) {
      const fn = new StaticFunction(decl.params, decl.body, scope);
      scope.set(decl.id.name, fn);
      if (exported) exports.set(decl.id.name, fn);
    } else if (decl.type === 'VariableDeclaration') {
      for (const d of decl.declarations) {
        const before = new Set(scope.keys());
        try {
          bindPattern(d.id, d.init ? evaluate(d.init) : undefined, scope, mctx.hooks, mctx.budget);
        } catch (err) {
          if (!(err instanceof Unevaluable)) throw err;
          mctx.warn(`could not evaluate ${d.id.type === 'Identifier' ? d.id.name : 'a declaration'} in ${mod.file}: ${err.message}`);
          if (d.id.type === 'Identifier') scope.set(d.id.name, new MissingImport(d.id.name, mod.file));
        }
        if (exported)
          for (const k of scope.keys()) if (!before.has(k) || (d.id.type === 'Identifier' && d.id.name === k)) exports.set(k, scope.get(k));
      }
    }
  };
  for (const stmt of mod.statements) {
    switch (stmt.type) {
      case 'ImportDeclaration':
        importInto(stmt, mod.file, scope, mctx, depth);
        break;
      case 'ExportNamedDeclaration':
        if (stmt.declaration) declare(stmt.declaration, true);
        else if (stmt.source) {
          const from = importModule(String(stmt.source.value), mod.file, mctx, depth);
          for (const s of stmt.specifiers) exports.set(nameOf(s.exported), from?.exports.get(nameOf(s.local)));
        } else for (const s of stmt.specifiers) exports.set(nameOf(s.exported), scope.get(nameOf(s.local)));
        break;
      case 'ExportDefaultDeclaration': {
        const d = stmt.declaration;
        try {
          exports.set(
            'default',
            d.type === 'FunctionDeclaration'
              ? new StaticFunction(d.params, d.body, scope)
              : d.type === 'ClassDeclaration'
                ? undefined
                : evaluate(d),
          );
        } catch (err) {
          if (!(err instanceof Unevaluable)) throw err;
          mctx.warn(`could not evaluate the default export of ${mod.file}: ${err.message}`);
        }
        break;
      }
      case 'VariableDeclaration':
      case 'FunctionDeclaration':
        declare(stmt, false);
        break;
      default:
        break;
    }
  }
  return result;
}

function nameOf(n: ES.Identifier | ES.Literal): string {
  return n.type === 'Identifier' ? n.name : String(n.value);
}

function importModule(
  specifier: string,
  fromFile: string,
  mctx: FeatureContext,
  depth: number,
): { exports: Map<string, unknown>; snippet?: SnippetComponent } | null {
  const target = mctx.loader.resolveSpecifier(specifier, fromFile);
  if (target === null) {
    mctx.warn(`import of package "${specifier}" in ${fromFile} is not available in a static export`);
    return null;
  }
  if (depth >= MAX_IMPORT_DEPTH) {
    mctx.warn(`imports nested deeper than ${MAX_IMPORT_DEPTH} at ${fromFile}`);
    return null;
  }
  let loaded: LoadedModule;
  try {
    loaded = mctx.loader.load(target);
  } catch (err) {
    mctx.warn(`${(err as Error).message} (imported by ${fromFile})`);
    return null;
  }
  const evaluated = evaluateModule(loaded, mctx, depth + 1);
  return { exports: evaluated.exports, snippet: loaded.kind === 'js' ? undefined : new SnippetComponent(loaded) };
}

function importInto(stmt: ES.ImportDeclaration, fromFile: string, scope: Map<string, unknown>, mctx: FeatureContext, depth: number): void {
  const specifier = String(stmt.source.value);
  const mod = importModule(specifier, fromFile, mctx, depth);
  for (const s of stmt.specifiers) {
    const local = s.local.name;
    if (!mod) {
      scope.set(local, new MissingImport(local, specifier));
    } else if (s.type === 'ImportDefaultSpecifier') {
      scope.set(local, mod.snippet ?? mod.exports.get('default') ?? new MissingImport(local, specifier));
    } else if (s.type === 'ImportNamespaceSpecifier') {
      scope.set(local, Object.fromEntries(mod.exports));
    } else {
      const name = nameOf(s.imported);
      if (!mod.exports.has(name)) mctx.warn(`${specifier} has no export named ${name} (imported by ${fromFile})`);
      scope.set(local, mod.exports.has(name) ? mod.exports.get(name) : new MissingImport(local, specifier));
    }
  }
}
