import '../cli/wasm-features.ts';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort()) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  const suite = (await import(resolve(dir, file))).default as BenchSuite;
  process.stderr.write(`bench: ${suite.title}…\n`);
  const t0 = performance.now();
  const body = await suite.run();
  sections.push(
    `## ${suite.title}\n\n${body.trim()}\n\n_(suite took ${((performance.now() - t0) / 1000).toFixed(1)} s on ${today()}, load average ${loadAverage()})_`,
  );
}
const header = `# Benchmarks\n\nWritten by \`npm run bench\` (all suites) on ${today()}; \`npm run bench -- <name>\` reruns the suites whose file name contains <name> and replaces only their sections. Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB. These machines are noisy, so each suite reports ratios measured in one run.\n`;
const target = resolve(import.meta.dirname, '../docs/benchmarks.md');
if (only.length && existsSync(target)) {
  writeFileSync(target, replaceSections(readFileSync(target, 'utf8'), sections));
} else {
  writeFileSync(target, header + '\n' + sections.join('\n\n') + '\n');
}
process.stdout.write(sections.join('\n\n') + `\n\nwrote ${target}\n`);

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
}

/** Replaces the sections whose `## title` matches, keeps every other section as it is, appends new ones. */
function replaceSections(doc: string, fresh: string[]): string {
  const parts = doc.split(/\n(?=## )/);
  const titleOf = (section: string) => section.split('\n', 1)[0];
  for (const section of fresh) {
    const i = parts.findIndex((p) => titleOf(p) === titleOf(section));
    if (i >= 0) parts[i] = section + '\n';
    else parts.push(section + '\n');
  }
  return parts.join('\n').replace(/\n*$/, '\n');
}
