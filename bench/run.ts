import { readdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import os from 'node:os';

/** A benchmark suite: bench/suites/<name>.ts default-exports one. Report ratios measured in the same run. */
export interface BenchSuite {
  title: string;
  run(): Promise<string>; // markdown section body (a table plus a sentence on what it means)
}

const only = process.argv.slice(2);
const dir = resolve(import.meta.dirname, 'suites');
const sections: string[] = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  const suite = (await import(resolve(dir, file))).default as BenchSuite;
  process.stderr.write(`bench: ${suite.title}…\n`);
  const t0 = performance.now();
  const body = await suite.run();
  sections.push(`## ${suite.title}\n\n${body.trim()}\n\n_(suite took ${((performance.now() - t0) / 1000).toFixed(1)} s)_`);
}
const header = `# Benchmarks\n\nWritten by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB. These machines are noisy, so each suite reports ratios measured in one run.\n`;
const target = resolve(import.meta.dirname, '../docs/benchmarks.md');
if (only.length) {
  process.stdout.write(sections.join('\n\n') + '\n');
} else {
  writeFileSync(target, header + '\n' + sections.join('\n\n') + '\n');
  process.stdout.write(`wrote ${target}\n`);
}
