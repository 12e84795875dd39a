/** Files that are whole or absent: what the durable run and the sweep store write with. */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/** Writes `bytes` to `path` so that `path` either does not exist or holds all of them (temporary file, fsync, rename). */
export function writeWhole(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, path);
}

/** fsync a folder, so that a rename in it survives a power cut (a no-op where the platform refuses). */
export function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    fsyncSync(fd);
    closeSync(fd);
  } catch {
    // Windows cannot open a folder for fsync; the rename is still atomic there.
  }
}

/** One clear phrase for a failed write's cause. */
export function writeErrorCause(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOSPC'
    ? 'the disk is full'
    : code === 'EDQUOT'
      ? 'the disk quota is used up'
      : code === 'EACCES'
        ? 'permission denied'
        : (e as Error).message;
}
