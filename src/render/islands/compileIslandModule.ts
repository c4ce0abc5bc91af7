import type * as ES from 'estree-jsx';
import { JsParser } from '../mdx/jsParser.js';
import { JSX_FACTORY, JSX_FRAGMENT, jsxToCalls } from './jsxToCalls.js';

/** A docs module compiled for the browser: a factory to register, and the modules it imports. */
export interface CompiledIslandModule {
  /** `function (__react, __enclave_h, __enclave_Fragment, __import) {…}` returning the module's bindings. */
  factory: string;
  /** Docs-relative files this module imports, which must ship with it. */
  imports: string[];
  /**
   * Names bound by imports the browser can't have (a package, an MDX snippet), with what they
   * import: they are left undefined there, so a component that uses one cannot run.
   */
  unavailable: Map<string, string>;
}

/** Packages an island may import: React's API is served by the bundled runtime. */
const REACT = new Set(['react', 'react-dom', 'preact', 'preact/compat', 'preact/hooks']);

/** Hooks and helpers Mintlify puts in scope of page components without an import. */
const IN_SCOPE = [
  'useState',
  'useEffect',
  'useLayoutEffect',
  'useMemo',
  'useCallback',
  'useRef',
  'useReducer',
  'useContext',
  'useId',
  'Fragment',
];

type Ranged = ES.Node & { start: number; end: number };

const nameOf = (n: ES.Identifier | ES.Literal): string => (n.type === 'Identifier' ? n.name : String(n.value));

/** Names a declaration binds at the top level (plain identifiers and destructured ones). */
function boundNames(pattern: ES.Pattern | null | undefined, out: string[]): void {
  if (!pattern) return;
  if (pattern.type === 'Identifier') out.push(pattern.name);
  else if (pattern.type === 'ObjectPattern')
    for (const p of pattern.properties) boundNames(p.type === 'RestElement' ? p.argument : p.value, out);
  else if (pattern.type === 'ArrayPattern') for (const p of pattern.elements) boundNames(p, out);
  else if (pattern.type === 'RestElement') boundNames(pattern.argument, out);
  else if (pattern.type === 'AssignmentPattern') boundNames(pattern.left, out);
}

function declared(decl: ES.Declaration | ES.Node, out: string[]): void {
  if ((decl.type === 'FunctionDeclaration' || decl.type === 'ClassDeclaration') && decl.id) out.push(decl.id.name);
  if (decl.type === 'VariableDeclaration') for (const d of decl.declarations) boundNames(d.id, out);
}

/** `import …` as a destructuring of what the runtime or another shipped module provides. */
function importCode(stmt: ES.ImportDeclaration, from: string): string {
  const lines: string[] = [];
  const named: string[] = [];
  for (const s of stmt.specifiers) {
    if (s.type === 'ImportSpecifier') named.push(`${JSON.stringify(nameOf(s.imported))}: ${s.local.name}`);
    else if (s.type === 'ImportDefaultSpecifier') lines.push(`const ${s.local.name} = ${from}.default ?? ${from};`);
    else lines.push(`const ${s.local.name} = ${from};`);
  }
  if (named.length > 0) lines.push(`const {${named.join(', ')}} = ${from};`);
  return lines.join('\n');
}

/**
 * Compiles a docs module (a page's `export const …` block, or a `.js`/`.jsx` snippet) into a
 * classic-script factory for the island runtime: JSX becomes calls, React imports and the hooks
 * Mintlify provides come from the bundled runtime, imports of other docs modules come through
 * `__import`, and the module's top-level bindings are returned by name. Imports the browser
 * can't have are listed (see `unavailable`); syntax the parser doesn't read throws.
 */
// size: one case per top-level statement kind, each a small rewrite of the author's text
export function compileIslandModule(source: string, resolve: (specifier: string) => string | null): CompiledIslandModule {
  const program = JsParser.parse(source, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as ES.Program;
  const parts: string[] = [];
  const names: string[] = [];
  const imports: string[] = [];
  const unavailable = new Map<string, string>();
  let defaultExport = 'undefined';
  const aliases: string[] = [];
  for (const node of program.body) {
    const stmt = node as Ranged & ES.Program['body'][number];
    if (stmt.type === 'ImportDeclaration') {
      const specifier = String(stmt.source.value);
      const file = REACT.has(specifier) ? null : resolve(specifier);
      if (REACT.has(specifier)) parts.push(importCode(stmt, '__react'));
      else if (file !== null && /\.(jsx?|mjs)$/i.test(file)) {
        imports.push(file);
        parts.push(importCode(stmt, `__import(${JSON.stringify(file)})`));
      } else {
        for (const s of stmt.specifiers) unavailable.set(s.local.name, specifier);
        parts.push(`const ${stmt.specifiers.map((s) => `${s.local.name} = undefined`).join(', ') || '__enclave_unused = undefined'};`);
      }
    } else if (stmt.type === 'ExportNamedDeclaration') {
      if (stmt.source) throw new Error(`it re-exports from "${String(stmt.source.value)}"`);
      if (stmt.declaration) {
        declared(stmt.declaration, names);
        parts.push(jsxToCalls(source, stmt.declaration));
      } else for (const s of stmt.specifiers) aliases.push(`${JSON.stringify(nameOf(s.exported))}: ${nameOf(s.local)}`);
    } else if (stmt.type === 'ExportDefaultDeclaration') {
      const d = stmt.declaration as ES.Node;
      if ((d.type === 'FunctionDeclaration' || d.type === 'ClassDeclaration') && d.id) {
        declared(d, names);
        parts.push(jsxToCalls(source, d));
        defaultExport = d.id.name;
      } else {
        parts.push(`const __enclave_default = ${jsxToCalls(source, d)};`);
        defaultExport = '__enclave_default';
      }
    } else {
      declared(stmt, names);
      parts.push(jsxToCalls(source, stmt));
    }
  }
  const bindings = [...new Set(names)].map((n) => `${JSON.stringify(n)}: ${n}`);
  const prelude = IN_SCOPE.map((h) => `${h} = __react.${h}`).join(', ');
  const factory = [
    `function (__react, ${JSX_FACTORY}, ${JSX_FRAGMENT}, __import) {`,
    '"use strict";',
    `var React = __react, ${prelude};`,
    // The author's code sits in a block so its own declarations may shadow the names above.
    '{',
    parts.join('\n'),
    `return {${[...bindings, ...aliases, `"default": ${defaultExport}`].join(', ')}};`,
    '}',
    '}',
  ].join('\n');
  return { factory, imports, unavailable };
}
