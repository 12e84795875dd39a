/** A headless CLI command. Each lives in cli/commands/<name>.ts and is listed in cli/commands/index.ts. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  /** Options in node:util parseArgs form; `json` is added to every command. */
  options?: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean; default?: string | boolean }>;
  run(ctx: CliContext): Promise<number>;
}

export interface CliContext {
  positionals: string[];
  values: Record<string, string | boolean | string[] | undefined>;
  json: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Raised for bad input: printed as one clear line, exit code 2. */
export class CliUsageError extends Error {}
