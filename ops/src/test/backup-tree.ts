import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes files under `root` at `path` (slash-separated) with their bytes and mtime (ms): the backup tests' media trees. */
export function treeWriter(root: string): (path: string, bytes: Buffer, mtime: number) => void {
  return (path, bytes, mtime) => {
    const file = join(root, ...path.split('/'));
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, bytes);
    utimesSync(file, mtime / 1000, mtime / 1000);
  };
}
