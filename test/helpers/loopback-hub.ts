/**
 * A server on loopback that behaves like the Hugging Face hub for the files a model load asks for:
 * `/<owner>/<repo>/resolve/<revision>/<file>` answers with a 302 to a content address (as the hub sends large files to
 * its CDN), which serves the bytes with ETag, Content-Length and Range support. Each repo is a folder of this
 * project's own models (no download: the stand-in is tiny-social, exported the way hub files are). Faults on demand:
 * a file cut halfway (the connection drops), a slow host, and a 404 for anything unknown. Every request is logged.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';

export interface LoopbackHub {
  /** The base URL to give the runtime (HF_ENDPOINT), with a trailing slash. */
  url: string;
  /** Every request: method and path. */
  requests: string[];
  /** Path suffix → what goes wrong: "cut" drops the connection halfway; a number delays each 64 kB chunk by that many ms. */
  faults: Map<string, 'cut' | number>;
  close(): Promise<void>;
}

/** `repos`: "owner/name" → the folder whose files it serves (at every revision). */
export function loopbackHub(repos: Record<string, string>): Promise<LoopbackHub> {
  const requests: string[] = [];
  const faults = new Map<string, 'cut' | number>();
  const byHash = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    // Like the hub: any page may read it (CORS), which a cross-origin-isolated page also needs.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'ETag, Content-Length, Content-Range, Accept-Ranges');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': 'GET, HEAD' }).end();
      return;
    }
    requests.push(`${req.method} ${path}`);
    const resolveMatch = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(path);
    if (resolveMatch) {
      const [, repo, , file] = resolveMatch;
      const dir = repos[repo];
      const target = dir && normalize(join(dir, file));
      if (!dir || !target.startsWith(dir) || !existsSync(target) || !statSync(target).isFile()) {
        res.writeHead(404, { 'Content-Type': 'text/plain', 'X-Error-Code': 'EntryNotFound' }).end('Entry not found');
        return;
      }
      const sha = createHash('sha256').update(readFileSync(target)).digest('hex');
      byHash.set(sha, target);
      res.writeHead(302, { Location: `/cdn/${sha}?file=${encodeURIComponent(file)}`, ETag: `"${sha}"` }).end();
      return;
    }
    const cdn = /^\/cdn\/([0-9a-f]{64})$/.exec(path);
    const target = cdn && byHash.get(cdn[1]);
    if (!target) {
      res.writeHead(404).end('Not found');
      return;
    }
    const body = readFileSync(target);
    const fault = [...faults].find(([suffix]) => target.endsWith(suffix))?.[1];
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Number(range[2]) + 1 : body.length;
    const part = body.subarray(start, end);
    res.writeHead(range ? 206 : 200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(part.length),
      ETag: `"${cdn[1]}"`,
      'Accept-Ranges': 'bytes',
      ...(range ? { 'Content-Range': `bytes ${start}-${end - 1}/${body.length}` } : {}),
    });
    if (fault === 'cut') {
      res.write(part.subarray(0, part.length >> 1), () => res.destroy());
      return;
    }
    if (typeof fault === 'number') {
      let at = 0;
      const next = () => {
        if (at >= part.length) return void res.end();
        res.write(part.subarray(at, (at += 65536)), () => setTimeout(next, fault));
      };
      return next();
    }
    res.end(part);
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`,
        requests,
        faults,
        close: () => new Promise<void>((closed) => server.close(() => closed())),
      }),
    ),
  );
}
