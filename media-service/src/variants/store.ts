import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, statfs, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Stats } from 'node:fs';
import type { VariantFormat } from './format';

export interface VariantKeyInput {
  relative: string;
  stat: Stats;
  width: number;
  format: VariantFormat;
}

/** The source's size and mtime are in the key, so a replaced source never serves an old variant. */
export function variantKey({ relative, stat, width, format }: VariantKeyInput): string {
  return createHash('sha256')
    .update(`v1\0${relative}\0${stat.size}\0${stat.mtimeMs}\0${stat.ino}\0${width}\0${format}`)
    .digest('hex');
}

const FULL_ERRORS = new Set(['ENOSPC', 'EDQUOT']);
const FREE_SPACE_RECHECK_MS = 5000;

export interface VariantStoreOptions {
  dir: string;
  memoryBytes: number;
  minFreeBytes: number;
  /** The file system write, replaceable so tests can simulate a full disk. */
  write?: (path: string, data: Buffer) => Promise<void>;
}

/** Variants on disk (survive restarts, shared by workers) with the hottest ones also in memory. */
export class VariantStore {
  private readonly memory = new Map<string, Buffer>();
  private memoryUsed = 0;
  private fullUntil = 0;
  private freeCheckedAt = 0;
  private readonly write: (path: string, data: Buffer) => Promise<void>;

  constructor(private readonly options: VariantStoreOptions) {
    this.write = options.write ?? ((path, data) => writeFile(path, data));
  }

  private file(key: string, format: VariantFormat): string {
    return join(this.options.dir, key.slice(0, 2), `${key}.${format}`);
  }

  fromMemory(key: string): Buffer | undefined {
    const hit = this.memory.get(key);
    if (hit) {
      this.memory.delete(key);
      this.memory.set(key, hit);
    }
    return hit;
  }

  private remember(key: string, data: Buffer): void {
    if (data.length > this.options.memoryBytes / 8 || this.memory.has(key)) return;
    this.memory.set(key, data);
    this.memoryUsed += data.length;
    for (const [oldest, buffer] of this.memory) {
      if (this.memoryUsed <= this.options.memoryBytes) break;
      this.memory.delete(oldest);
      this.memoryUsed -= buffer.length;
    }
  }

  async fromDisk(key: string, format: VariantFormat): Promise<Buffer | undefined> {
    try {
      const data = await readFile(this.file(key, format));
      this.remember(key, data);
      return data;
    } catch {
      return undefined;
    }
  }

  /** True while the cache disk is (nearly) full: callers serve originals rather than render. */
  async isFull(): Promise<boolean> {
    const now = Date.now();
    if (now < this.fullUntil) return true;
    if (now - this.freeCheckedAt < FREE_SPACE_RECHECK_MS) return false;
    this.freeCheckedAt = now;
    try {
      await mkdir(this.options.dir, { recursive: true });
      const fs = await statfs(this.options.dir);
      if (fs.bavail * fs.bsize < this.options.minFreeBytes) {
        this.fullUntil = now + FREE_SPACE_RECHECK_MS;
        return true;
      }
    } catch {
      // An unreadable cache dir shows up as a write error below.
    }
    return false;
  }

  /** Atomic (temp file + rename). Returns false when the disk is full. */
  async save(key: string, format: VariantFormat, data: Buffer): Promise<boolean> {
    const target = this.file(key, format);
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(join(this.options.dir, key.slice(0, 2)), { recursive: true });
      await this.write(temp, data);
      await rename(temp, target);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      if (FULL_ERRORS.has((err as NodeJS.ErrnoException).code ?? '')) {
        this.fullUntil = Date.now() + FREE_SPACE_RECHECK_MS;
        return false;
      }
      throw err;
    }
    this.remember(key, data);
    return true;
  }
}
