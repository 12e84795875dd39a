/**
 * A plain static host of the built app on loopback, the way GitHub Pages serves a project site: the files of dist/
 * under a sub-path, no special headers, anything else a 404. `overrides` replaces a file's bytes (a "new version"
 * of the site), and `offline` makes every request fail, as a host that is gone.
 */
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

export const DIST = resolve(import.meta.dirname, '../../..', process.env.SML_DIST ?? 'dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
};

export interface StaticHost {
  server: Server;
  origin: string;
  /** Site path (after the sub-path, "sw.js") → the bytes served instead of dist's. */
  overrides: Map<string, Buffer>;
  close(): Promise<void>;
}

export function staticHost(sub = '/'): Promise<StaticHost> {
  const overrides = new Map<string, Buffer>();
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (!path.startsWith(sub)) return void res.writeHead(404).end();
    const site = path.slice(sub.length) || 'index.html';
    const file = normalize(join(DIST, site));
    if (!file.startsWith(DIST)) return void res.writeHead(403).end();
    try {
      const target = (await stat(file)).isDirectory() ? join(file, 'index.html') : file;
      const body = overrides.get(site) ?? (await readFile(target));
      res.writeHead(200, { 'Content-Type': TYPES[extname(target)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({
        server,
        origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        overrides,
        close: () => new Promise<void>((closed) => server.close(() => closed())),
      }),
    ),
  );
}
