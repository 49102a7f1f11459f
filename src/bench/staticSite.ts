import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

/** Text-like files a static host compresses; images and wasm are served as they are. */
const COMPRESSED = new Set(['.html', '.js', '.css', '.svg', '.json', '.webmanifest', '.wasm']);

/**
 * Serves a built folder on a free loopback port the way a static host does: gzip for text when
 * the browser asks for it, long caching for hashed assets. The benchmarks measure the site as a
 * learner gets it, so an uncompressed server would make every load figure look worse than it is.
 */
export function serveStatic(dir: string): Promise<{ url: string; close: () => void }> {
  const gzipped = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = path.endsWith('/') ? `${path}index.html` : path;
    let body: Buffer;
    try {
      body = readFileSync(join(dir, file));
    } catch {
      res.writeHead(404);
      res.end();
      return;
    }
    const ext = extname(file);
    const headers: Record<string, string> = { 'content-type': TYPES[ext] ?? 'application/octet-stream' };
    if (file.includes('/assets/')) headers['cache-control'] = 'public, max-age=31536000, immutable';
    if (COMPRESSED.has(ext) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      let zipped = gzipped.get(file);
      if (zipped === undefined) gzipped.set(file, (zipped = gzipSync(body)));
      headers['content-encoding'] = 'gzip';
      body = zipped;
    }
    res.writeHead(200, headers);
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
    ),
  );
}
