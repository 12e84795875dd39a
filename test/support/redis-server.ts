/**
 * A real redis-server on a free loopback port, for the sweep tests and benchmark (started and stopped by them; never
 * a mock). Its append-only file is on, so a restart keeps the queue, as in production.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => done(p));
    });
  });

export class LocalRedis {
  private child: ChildProcess | null = null;
  constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(dir: string): Promise<LocalRedis> {
    const r = new LocalRedis(await freePort(), dir);
    await r.start();
    return r;
  }

  /** Starts (or starts again) the server and waits until it answers. */
  async start(): Promise<void> {
    if (spawnSync('redis-server', ['--version']).error) throw new Error('redis-server is not installed: apt-get install redis-server (.ci/run does it)');
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 200; i++) {
      if (this.cli('ping') === 'PONG') return;
      await sleep(25);
    }
    throw new Error('redis-server did not start');
  }

  /** One redis-cli command; its output, trimmed. */
  cli(...args: string[]): string {
    return spawnSync('redis-cli', ['-p', String(this.port), ...args], { encoding: 'utf8' }).stdout?.trim() ?? '';
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.cli('shutdown');
    await new Promise<void>((done) => (child && child.exitCode === null ? child.once('exit', () => done()) : done()));
  }
}
