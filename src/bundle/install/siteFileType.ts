import { extname } from 'node:path';

/** How a site file is served: its Content-Type and whether gzip/brotli variants are worth storing. */
export interface SiteFileType {
  contentType: string;
  compressible: boolean;
}

const TYPES: Record<string, SiteFileType> = {
  '.html': { contentType: 'text/html; charset=utf-8', compressible: true },
  '.htm': { contentType: 'text/html; charset=utf-8', compressible: true },
  '.css': { contentType: 'text/css; charset=utf-8', compressible: true },
  '.js': { contentType: 'text/javascript; charset=utf-8', compressible: true },
  '.mjs': { contentType: 'text/javascript; charset=utf-8', compressible: true },
  '.json': { contentType: 'application/json; charset=utf-8', compressible: true },
  '.map': { contentType: 'application/json; charset=utf-8', compressible: true },
  '.webmanifest': { contentType: 'application/manifest+json; charset=utf-8', compressible: true },
  '.xml': { contentType: 'application/xml; charset=utf-8', compressible: true },
  '.txt': { contentType: 'text/plain; charset=utf-8', compressible: true },
  '.md': { contentType: 'text/markdown; charset=utf-8', compressible: true },
  '.csv': { contentType: 'text/csv; charset=utf-8', compressible: true },
  '.yaml': { contentType: 'application/yaml; charset=utf-8', compressible: true },
  '.yml': { contentType: 'application/yaml; charset=utf-8', compressible: true },
  '.svg': { contentType: 'image/svg+xml', compressible: true },
  '.ico': { contentType: 'image/x-icon', compressible: true },
  '.png': { contentType: 'image/png', compressible: false },
  '.jpg': { contentType: 'image/jpeg', compressible: false },
  '.jpeg': { contentType: 'image/jpeg', compressible: false },
  '.gif': { contentType: 'image/gif', compressible: false },
  '.webp': { contentType: 'image/webp', compressible: false },
  '.avif': { contentType: 'image/avif', compressible: false },
  '.woff': { contentType: 'font/woff', compressible: false },
  '.woff2': { contentType: 'font/woff2', compressible: false },
  '.ttf': { contentType: 'font/ttf', compressible: true },
  '.otf': { contentType: 'font/otf', compressible: true },
  '.eot': { contentType: 'application/vnd.ms-fontobject', compressible: true },
  '.wasm': { contentType: 'application/wasm', compressible: true },
  '.pdf': { contentType: 'application/pdf', compressible: false },
  '.mp4': { contentType: 'video/mp4', compressible: false },
  '.webm': { contentType: 'video/webm', compressible: false },
  '.mp3': { contentType: 'audio/mpeg', compressible: false },
  '.zip': { contentType: 'application/zip', compressible: false },
};
const UNKNOWN: SiteFileType = { contentType: 'application/octet-stream', compressible: false };

/** The serving type of a bundle file, from its extension (unknown → octet-stream, never sniffed). */
export function siteFileType(path: string): SiteFileType {
  return TYPES[extname(path).toLowerCase()] ?? UNKNOWN;
}
