import AdmZip from 'adm-zip';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { crc32, deflateRawSync } from 'node:zlib';

/** Bundle contents: relative path → bytes. */
export type SiteFiles = Record<string, Buffer>;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * A small docs site whose every file carries `version` (pages in a meta tag, assets in a
 * comment), with content-hashed asset names like the real export's, so tests can tell which
 * version answered any request.
 */
export function makeSiteFiles(version: string, extra: SiteFiles = {}): SiteFiles {
  const css = Buffer.from(`/* version:${version} */\nbody{font-family:sans-serif;color:#222}\n${'.c{margin:0}\n'.repeat(80)}`);
  const js = Buffer.from(`// version:${version}\nconsole.log(${JSON.stringify(version)});\n${'void 0;\n'.repeat(100)}`);
  const cssName = `_assets/theme.${sha256(css).slice(0, 8)}.css`;
  const jsName = `_assets/app.${sha256(js).slice(0, 8)}.js`;
  const page = (title: string, depth: number, body: string) => {
    const up = '../'.repeat(depth);
    return Buffer.from(
      `<!doctype html><html><head><meta charset="utf-8"><meta name="enclave-version" content="${version}"><title>${title}</title>` +
        `<link rel="stylesheet" href="${up}${cssName}"><script src="${up}${jsName}" defer></script>` +
        `<script>document.documentElement.dataset.v=${JSON.stringify(version)}</script></head>` +
        `<body><main><h1>${title}</h1><p>${body}</p>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(30)}</main></body></html>\n`,
    );
  };
  return {
    'index.html': page('Home', 0, 'Welcome'),
    'guides/start.html': page('Start', 1, 'Getting started'),
    'guides/index.html': page('Guides', 1, 'All guides'),
    'reference.html': page('Reference', 0, 'API reference'),
    '404.html': page('Not found', 0, 'No such page'),
    [cssName]: css,
    [jsName]: js,
    '_assets/logo.png': Buffer.from(`\x89PNG\r\n\x1a\n${version}`.padEnd(300, '\0'), 'latin1'),
    'sitemap.xml': Buffer.from(`<?xml version="1.0"?><urlset><url><loc>/guides/start</loc></url></urlset><!-- ${version} -->\n`),
    'llms.txt': Buffer.from(`# Docs ${version}\n`),
    'guides/start.md': Buffer.from(`# Start (${version})\n`),
    '.hidden': Buffer.from('secret dotfile'),
    '_enclave/report.json': Buffer.from(JSON.stringify({ pages: { expected: 4, rendered: 4, failed: [] } })),
    ...extra,
  };
}

/** The manifest for `files` (each file's size and SHA-256), with fields overridable. */
export function makeManifest(files: SiteFiles, fields: { version: string; domain?: string } & Record<string, unknown>): Buffer {
  const manifest = {
    formatVersion: 1,
    domain: 'docs.test.internal',
    jobId: 'se_0123456789abcdef',
    createdAt: '2026-03-01T00:00:00.000Z',
    generator: { name: 'enclave', version: '0.1.0' },
    pages: [
      { path: '/', title: 'Home', file: 'index.html' },
      { path: '/guides/start', title: 'Start', file: 'guides/start.html' },
      { path: '/guides', title: 'Guides', file: 'guides/index.html' },
      { path: '/reference', title: 'Reference', file: 'reference.html' },
    ].filter((p) => files[p.file]),
    files: Object.entries(files).map(([path, data]) => ({ path, size: data.length, sha256: sha256(data) })),
    ...fields,
  };
  return Buffer.from(JSON.stringify(manifest, null, 2));
}

/** Writes a well-formed bundle with adm-zip (a real-world writer), manifest included. */
export async function writeBundle(
  zipPath: string,
  version: string,
  options: { files?: SiteFiles; manifestFields?: Record<string, unknown> } = {},
): Promise<SiteFiles> {
  const files = options.files ?? makeSiteFiles(version);
  const zip = new AdmZip();
  for (const [path, data] of Object.entries(files)) zip.addFile(path, data);
  zip.addFile('_enclave/manifest.json', makeManifest(files, { version, ...options.manifestFields }));
  await zip.writeZipPromise(zipPath);
  return files;
}

/** One entry of a hand-built zip; every field an attacker controls can be set. */
export interface RawEntry {
  name: string | Buffer;
  data: Buffer;
  /** 0 stored, 8 deflate; anything else is written as stored data under that method number. */
  method?: number;
  /** High 16 bits: Unix st_mode. */
  externalAttributes?: number;
  madeByOs?: number;
  /** Lie about the uncompressed size in both headers. */
  declaredSize?: number;
  /** A different name in the local header than in the central directory. */
  localName?: string;
}

/**
 * Writes a zip byte by byte, with no name sanitising (adm-zip rewrites `../x` and friends on
 * add, so it can't produce the malicious archives the verifier must refuse).
 */
export function buildRawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.isBuffer(entry.name) ? entry.name : Buffer.from(entry.name, 'utf8');
    const localName = entry.localName === undefined ? name : Buffer.from(entry.localName, 'utf8');
    const method = entry.method ?? 8;
    const stored = method === 8 ? deflateRawSync(entry.data) : entry.data;
    const size = entry.declaredSize ?? entry.data.length;
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(localName.length, 26);
    locals.push(local, localName, stored);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt8(20, 4);
    central.writeUInt8(entry.madeByOs ?? 3, 5);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((entry.externalAttributes ?? 0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + localName.length + stored.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A raw zip of a valid site plus manifest, with `mutate` applied to the entry list first. */
export async function writeRawBundle(
  zipPath: string,
  version: string,
  mutate: (entries: RawEntry[], files: SiteFiles) => RawEntry[] = (e) => e,
  manifestFiles?: SiteFiles,
): Promise<void> {
  const files = makeSiteFiles(version);
  const entries: RawEntry[] = Object.entries(files).map(([name, data]) => ({ name, data }));
  entries.push({ name: '_enclave/manifest.json', data: makeManifest(manifestFiles ?? files, { version }) });
  await writeFile(zipPath, buildRawZip(mutate(entries, files)));
}
