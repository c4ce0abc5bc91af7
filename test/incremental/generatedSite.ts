import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A seeded pseudo-random source (mulberry32): the same seed gives the same edit sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The kinds of change the incremental export must follow (issue 32). */
export const EDIT_KINDS = ['body', 'title', 'snippet', 'openapi', 'image', 'navigation', 'colours', 'add', 'remove', 'rename'] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

/** A small PNG-like file whose bytes depend on `n` (its content, not its format, is what changes). */
const imageBytes = (n: number) => Buffer.from(`\x89PNG\r\n\x1a\nfake image ${n}\n`, 'latin1');

/**
 * A generated docs site in a folder: pages in groups, a snippet used by every other page, an
 * OpenAPI file behind two API pages, an image shown on a page, and docs.json. `edit` changes it
 * the way an author would; `pages` lists the page paths in the navigation.
 */
export class GeneratedSite {
  pages: string[] = [];
  private counter = 0;
  private colour = 0;
  private petSummary = 'List pets';

  /** With `audiences`, pages carry reader sign-in marks (some public, some for one group), so exports write per-audience files. */
  constructor(
    readonly dir: string,
    private readonly options: { audiences?: boolean } = {},
  ) {}

  /** Writes a site of `count` pages. */
  async create(count: number): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    for (let i = 0; i < count; i++) {
      const path = `guides/page-${i}`;
      this.pages.push(path);
      await this.writePage(path, `Page ${i}`, `Body of page ${i}.`, i % 2 === 0);
    }
    await this.write('snippets/note.mdx', 'A shared note, version 0.\n');
    await this.write('images/diagram.png', imageBytes(0));
    await this.writeSpec();
    await this.writeConfig();
  }

  private async write(rel: string, data: string | Buffer): Promise<void> {
    await mkdir(dirname(join(this.dir, rel)), { recursive: true });
    await writeFile(join(this.dir, rel), data);
  }

  private async writePage(path: string, title: string, body: string, withSnippet: boolean): Promise<void> {
    const snippet = withSnippet ? `import Note from '/snippets/note.mdx';\n\n<Note />\n\n` : '';
    const image = path.endsWith('-1') ? '![Diagram](/images/diagram.png)\n\n' : '';
    const link = `See [the first page](/${this.pages[0]}) and [the pets API](/api-reference/list-pets).\n`;
    await this.write(
      `${path}.mdx`,
      `---\ntitle: "${title}"\ndescription: "About ${title}"\n${this.accessMark(path)}---\n${snippet}${image}${body}\n\n## Details\n\n${link}\n\`\`\`js\nconst n = ${this.counter};\n\`\`\`\n`,
    );
  }

  /** The page's reader sign-in mark in frontmatter: by the sum of its path's character codes, public, one group's, or none. */
  private accessMark(path: string): string {
    if (!this.options.audiences) return '';
    const sum = [...path].reduce((n, c) => n + c.charCodeAt(0), 0);
    return ['public: true\n', 'groups: ["staff"]\n', ''][sum % 3];
  }

  private async writeSpec(): Promise<void> {
    const spec = {
      openapi: '3.0.0',
      info: { title: 'Pets', version: '1' },
      servers: [{ url: 'https://api.example.com' }],
      paths: {
        '/pets': { get: { summary: this.petSummary, responses: { '200': { description: 'The pets' } } } },
        '/pets/{id}': {
          get: {
            summary: 'Get a pet',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'A pet' } },
          },
        },
      },
    };
    await this.write('openapi.json', JSON.stringify(spec, null, 2));
  }

  private async writeConfig(): Promise<void> {
    const half = Math.ceil(this.pages.length / 2);
    const config = {
      name: 'Generated',
      theme: 'mint',
      colors: { primary: `#${(0x224488 + this.colour * 0x111111).toString(16).slice(-6)}` },
      navigation: {
        groups: [
          { group: 'First', pages: this.pages.slice(0, half) },
          { group: 'Second', pages: this.pages.slice(half) },
          { group: 'API', openapi: 'openapi.json', pages: ['GET /pets', 'GET /pets/{id}'] },
        ],
      },
    };
    await this.write('docs.json', JSON.stringify(config, null, 2));
  }

  /** Makes one change of `kind`, choosing what to change with `random`. */
  async edit(kind: EditKind, random: () => number): Promise<void> {
    const n = ++this.counter;
    const pick = () => this.pages[Math.floor(random() * this.pages.length)];
    const rewrite = async (path: string, change: (text: string) => string) => {
      const file = join(this.dir, `${path}.mdx`);
      await writeFile(file, change(await readFile(file, 'utf8')));
    };
    if (kind === 'body') await rewrite(pick(), (t) => t.replace(/## Details/, `Edit ${n}.\n\n## Details`));
    else if (kind === 'title') await rewrite(pick(), (t) => t.replace(/^title: "([^"]*)"/m, `title: "$1 (${n})"`));
    else if (kind === 'snippet') await this.write('snippets/note.mdx', `A shared note, version ${n}.\n`);
    else if (kind === 'openapi') {
      this.petSummary = `List pets ${n}`;
      await this.writeSpec();
    } else if (kind === 'image') await this.write('images/diagram.png', imageBytes(n));
    else if (kind === 'navigation') {
      const i = Math.floor(random() * this.pages.length);
      const [moved] = this.pages.splice(i, 1);
      this.pages.push(moved);
      await this.writeConfig();
    } else if (kind === 'colours') {
      this.colour = n % 7;
      await this.writeConfig();
    } else if (kind === 'add') {
      const path = `guides/added-${n}`;
      this.pages.splice(Math.floor(random() * this.pages.length), 0, path);
      await this.writePage(path, `Added ${n}`, `A page added by edit ${n}.`, random() < 0.5);
      await this.writeConfig();
    } else if (kind === 'remove' && this.pages.length > 3) {
      const path = pick();
      if (path === this.pages[0]) return;
      this.pages = this.pages.filter((p) => p !== path);
      await rm(join(this.dir, `${path}.mdx`));
      await this.writeConfig();
    } else if (kind === 'rename') {
      const path = pick();
      if (path === this.pages[0]) return;
      const renamed = `guides/renamed-${n}`;
      this.pages = this.pages.map((p) => (p === path ? renamed : p));
      await rename(join(this.dir, `${path}.mdx`), join(this.dir, `${renamed}.mdx`));
      await this.writeConfig();
    }
  }
}

/** Every file under `dir` by relative path, with its bytes. */
export async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    files.set(full.slice(dir.length + 1), await readFile(full));
  }
  return files;
}
