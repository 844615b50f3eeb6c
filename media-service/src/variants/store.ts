import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, statfs, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import sharp from 'sharp';
import type { VariantFormat } from './format';

export interface VariantKeyInput {
  relative: string;
  /** A file's Stats, or an object's size and kept mtime (object storage). */
  stat: { size: number; mtimeMs: number };
  width: number;
  format: VariantFormat;
}

/** Another sharp or libvips may encode other bytes: a variant made by one is not the other's. */
const RENDERER = `sharp ${sharp.versions.sharp ?? '?'} vips ${sharp.versions.vips}`;

/**
 * What the variant is of, and nothing about where: the path below MEDIA_ROOT, the source's size and
 * mtime in whole seconds (as its ETag, and all that copies and network mounts are sure to keep),
 * width, format and renderer. Replicas over copies of one tree (cp -a, rsync -a) compute the same key,
 * so the variant's ETag matches on all of them; a replaced source (new size or mtime) gets a new one.
 */
export function variantKey({ relative, stat, width, format }: VariantKeyInput): string {
  return createHash('sha256')
    .update(`v2\0${relative}\0${stat.size}\0${Math.floor(stat.mtimeMs / 1000)}\0${width}\0${format}\0${RENDERER}`)
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
  /** Least recently used out first, bounded in bytes; one variant may take at most 1/8 of it. Absent at 0 bytes. */
  private readonly memory: LRUCache<string, Buffer> | undefined;
  private fullUntil = 0;
  private freeCheckedAt = 0;
  private readonly write: (path: string, data: Buffer) => Promise<void>;

  constructor(private readonly options: VariantStoreOptions) {
    this.write = options.write ?? ((path, data) => writeFile(path, data));
    const maxSize = options.memoryBytes;
    this.memory =
      maxSize > 0
        ? new LRUCache({ maxSize, maxEntrySize: Math.max(1, Math.floor(maxSize / 8)), sizeCalculation: (data) => data.length })
        : undefined;
  }

  private file(key: string, format: VariantFormat): string {
    return join(this.options.dir, key.slice(0, 2), `${key}.${format}`);
  }

  fromMemory(key: string): Buffer | undefined {
    return this.memory?.get(key);
  }

  private remember(key: string, data: Buffer): void {
    // Too big for the memory tier: lru-cache leaves it out (maxEntrySize).
    if (data.length > 0 && !this.memory?.has(key)) this.memory?.set(key, data);
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
