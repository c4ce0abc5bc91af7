import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import type * as ES from 'estree-jsx';
import type { Root } from 'mdast';
import { JsParser } from './jsParser.js';
import { parseSource } from './parseSource.js';

/** A parsed `.mdx`/`.md` snippet or `.jsx`/`.js` module, cached for the whole render. */
export interface LoadedModule {
  /** Docs-root-relative POSIX path, e.g. `snippets/intro.mdx`. */
  file: string;
  kind: 'mdx' | 'md' | 'js';
  /** The mdast of an MDX/MD snippet (its default export is this content). */
  root?: Root;
  /** Top-level ESM statements (imports and exports), in order. */
  statements: ES.Node[];
  /** The module's JavaScript text (an MDX file's import/export blocks), for islands to ship. */
  source?: string;
}

/** A default-imported MDX snippet used as a component: `<Intro word="x" />`. */
export class SnippetComponent {
  constructor(readonly module: LoadedModule) {}
}

/** An import whose file is missing (a docs tree copied without its scripts): renders its children. */
export class MissingImport {
  constructor(
    readonly name: string,
    readonly source: string,
  ) {}
}

/** The files an import of `file` may name, in the order they are tried. */
export function moduleCandidates(file: string): string[] {
  return /\.(mdx|md|jsx|js|tsx|ts)$/i.test(file) ? [file] : [`${file}.mdx`, `${file}.jsx`, `${file}.js`, `${file}.md`];
}

/** Resolves, reads and parses imported modules once per render; pages import the same snippets hundreds of times. */
export class ModuleLoader {
  private readonly cache = new Map<string, LoadedModule | Error>();

  /** `onLoad` hears of every load, cached or not: the incremental export records a page's modules with it. */
  constructor(
    private readonly sourceDir: string,
    private readonly onLoad?: (file: string) => void,
  ) {}

  /**
   * Resolves an import specifier seen in `fromFile` to a docs-relative path. `/x` is from the
   * docs root; `./x` and `../x` from the importing file. Bare package names return null.
   */
  resolveSpecifier(specifier: string, fromFile: string): string | null {
    if (specifier.startsWith('/')) return posix.normalize(specifier.slice(1));
    if (specifier.startsWith('./') || specifier.startsWith('../')) {
      const joined = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
      return joined.startsWith('../') ? null : joined;
    }
    return null;
  }

  /** Loads a module by docs-relative path; throws an Error (cached) if it is missing or unparsable. */
  load(file: string): LoadedModule {
    this.onLoad?.(file);
    const hit = this.cache.get(file);
    if (hit instanceof Error) throw hit;
    if (hit) return hit;
    try {
      const loaded = this.read(file);
      this.cache.set(file, loaded);
      return loaded;
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      this.cache.set(file, error);
      throw error;
    }
  }

  private read(file: string): LoadedModule {
    for (const candidate of moduleCandidates(file)) {
      let text: string;
      try {
        text = readFileSync(posix.join(this.sourceDir.split('\\').join('/'), candidate), 'utf8');
      } catch {
        continue;
      }
      if (/\.mdx?$/i.test(candidate)) {
        const kind = candidate.toLowerCase().endsWith('.md') ? 'md' : 'mdx';
        const root = parseSource(text, kind);
        const statements = root.children.flatMap((n) => (n.type === 'mdxjsEsm' && n.data?.estree ? (n.data.estree.body as ES.Node[]) : []));
        return { file: candidate, kind, root, statements, source: esmSource(root) };
      }
      try {
        const program = JsParser.parse(text, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as ES.Program;
        return { file: candidate, kind: 'js', statements: program.body, source: text };
      } catch (err) {
        throw new Error(`cannot parse ${candidate}: ${(err as Error).message}`);
      }
    }
    throw new Error(`imported file not found: /${file}`);
  }
}

/** The import/export blocks of an MDX document, joined: the JavaScript its components are written in. */
export function esmSource(root: Root): string {
  return root.children.flatMap((n) => (n.type === 'mdxjsEsm' ? [n.value] : [])).join('\n');
}
