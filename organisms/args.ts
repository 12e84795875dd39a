/** `--name value` options of the organisms' scripts (corpus, check): one reader for all of them. */
export function option(name: string, fallback: string, args: readonly string[] = process.argv.slice(2)): string {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
}
