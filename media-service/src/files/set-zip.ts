import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { AppError, notFound } from '../errors';
import type { ByteRange } from './range';
import type { Representation } from './send';
import type { ListedObject, Originals } from '@media-site/storage/originals';

// The photo files a set's ZIP holds (ops/src/ingest/layout.ts IMAGE_EXTENSIONS).
const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp']);
// Classic ZIP limits (no ZIP64): 65,535 entries, 4 GiB - 1 for any size or offset.
const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;
const UTF8_NAMES = 0x0800;
const VERSION = 20;
const READ_CHUNK = 1024 * 1024;

/** A file a set's ZIP holds: from the local tree or a bucket object, read only for the range sent. */
interface ZipFile {
  name: string;
  size: number;
  mtimeMs: number;
  crc: number;
  read(range: ByteRange): AsyncIterable<Buffer | Uint8Array>;
}

interface Entry extends ZipFile {
  offset: number;
}

type Segment = { start: number; buffer: Buffer } | { start: number; file: ZipFile };

/** `{folder}/{folder}.zip` in a family with set ZIPs (photos): the whole set as one ZIP (see README "Set ZIP"). */
export function isSetZip(rest: readonly string[]): boolean {
  return rest.length === 2 && rest[1] === `${rest[0]}.zip`;
}

async function crcOf(bytes: AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer>): Promise<number> {
  let crc = 0;
  for await (const chunk of bytes) crc = crc32(chunk, crc);
  return crc;
}

/**
 * CRC-32 of every file already read once, by path, size, mtime and inode (a bucket object: by key
 * and listed version, with its kept mtime): a resumed download (or the next member) does not read
 * the whole set again before its first byte.
 */
export class CrcCache {
  private readonly map = new Map<string, { crc: number; mtimeMs: number }>();
  constructor(private readonly maxEntries = 20_000) {}

  private remember(key: string, value: { crc: number; mtimeMs: number }): void {
    if (this.map.size >= this.maxEntries) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, value);
  }

  async of(absolute: string, size: number, mtimeMs: number, ino: number): Promise<number> {
    const key = `${absolute}\u0000${size}\u0000${mtimeMs}\u0000${ino}`;
    const known = this.map.get(key);
    if (known !== undefined) return known.crc;
    const crc = await crcOf(createReadStream(absolute, { highWaterMark: READ_CHUNK }));
    this.remember(key, { crc, mtimeMs });
    return crc;
  }

  /** A bucket object's CRC and mtime (one HeadObject and one whole read per object version); null when it is gone. */
  async ofObject(store: Originals, object: ListedObject): Promise<{ crc: number; mtimeMs: number } | null> {
    const key = `s3\u0000${object.relative}\u0000${object.version}`;
    const known = this.map.get(key);
    if (known !== undefined) return known;
    const head = await store.head(object.relative);
    if (!head) return null;
    const crc = await crcOf(head.size === 0 ? [] : store.read(object.relative, { start: 0, end: head.size - 1 }));
    const value = { crc, mtimeMs: object.mtimeMs ?? head.mtimeMs };
    this.remember(key, value);
    return value;
  }
}

/** MS-DOS date and time (2-second resolution) of a file's mtime, in UTC so every host writes the same bytes. */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getUTCFullYear(), 1980), 2107);
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/**
 * The fields the local header and the central directory entry share, in the same order (APPNOTE
 * 4.3.7 / 4.3.12: version needed, flags, method, time, date, CRC-32, sizes, name length), from `at`.
 */
function writeSharedFields(b: Buffer, at: number, name: Buffer, e: { crc: number; size: number; mtimeMs: number }): void {
  const { time, date } = dosDateTime(new Date(e.mtimeMs));
  b.writeUInt16LE(VERSION, at);
  b.writeUInt16LE(UTF8_NAMES, at + 2);
  b.writeUInt16LE(0, at + 4); // STORE: photos are compressed already
  b.writeUInt16LE(time, at + 6);
  b.writeUInt16LE(date, at + 8);
  b.writeUInt32LE(e.crc >>> 0, at + 10);
  b.writeUInt32LE(e.size, at + 14);
  b.writeUInt32LE(e.size, at + 18);
  b.writeUInt16LE(name.length, at + 22);
}

function localHeader(name: Buffer, e: { crc: number; size: number; mtimeMs: number }): Buffer {
  const b = Buffer.alloc(30);
  b.writeUInt32LE(0x04034b50, 0);
  writeSharedFields(b, 4, name, e);
  b.writeUInt16LE(0, 28);
  return Buffer.concat([b, name]);
}

function centralHeader(name: Buffer, e: Entry): Buffer {
  const b = Buffer.alloc(46);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE((3 << 8) | VERSION, 4); // made by: Unix, so the mode below is read
  writeSharedFields(b, 6, name, e);
  b.writeUInt32LE((0o100644 << 16) >>> 0, 38);
  b.writeUInt32LE(e.offset, 42);
  return Buffer.concat([b, name]);
}

function endOfCentralDirectory(entries: number, size: number, offset: number): Buffer {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(0x06054b50, 0);
  b.writeUInt16LE(entries, 8);
  b.writeUInt16LE(entries, 10);
  b.writeUInt32LE(size, 12);
  b.writeUInt32LE(offset, 16);
  return b;
}

/** The photo files of a set, by name: no dotfiles, images only, sorted by their UTF-8 bytes. */
function zipNames(names: string[]): string[] {
  return names
    .filter((name) => !name.startsWith('.') && IMAGE_EXTENSIONS.has(extname(name).toLowerCase()))
    .sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1));
}

function checkCount(count: number): void {
  if (count === 0) throw notFound();
  if (count > MAX_ENTRIES) throw new AppError('not_found', 'This set has too many photos for one ZIP');
}

/**
 * The set's ZIP as a Representation: the same bytes for the same files every time (names sorted,
 * STORE, UTC mtimes, no data descriptors), so `answer()` serves it with ETag, If-Range and Range
 * like a file on disk and a download resumes exactly. Built from the directory listing and the
 * cached CRCs; file bytes are read only for the range sent.
 */
export async function setZip(realRoot: string, folder: string, crcs: CrcCache): Promise<Representation> {
  let dir: string;
  try {
    dir = await realpath(join(realRoot, 'photos', folder));
  } catch {
    throw notFound();
  }
  if (!dir.startsWith(realRoot + sep)) throw notFound();
  const names = zipNames((await readdir(dir, { withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name));
  checkCount(names.length);
  const files: ZipFile[] = [];
  let total = 0;
  for (const name of names) {
    const absolute = join(dir, name);
    const info = await stat(absolute);
    total += entryLength(folder, name, info.size);
    if (total > MAX_OFFSET) throw tooLarge();
    const crc = await crcs.of(absolute, info.size, info.mtimeMs, info.ino);
    files.push({
      name,
      size: info.size,
      mtimeMs: info.mtimeMs,
      crc,
      read: ({ start, end }) => createReadStream(absolute, { start, end, highWaterMark: READ_CHUNK }),
    });
  }
  return zipOf(folder, files);
}

/**
 * STORAGE=s3: the same ZIP from the bucket's `photos/{folder}/` objects (ListObjectsV2, then each
 * object's mtime and CRC once per version), byte for byte what `setZip` gives for the same files.
 */
export async function bucketSetZip(store: Originals, folder: string, crcs: CrcCache): Promise<Representation> {
  const prefix = `photos/${folder}/`;
  const listed = new Map((await store.list(prefix)).map((o) => [o.relative.slice(prefix.length), o]));
  const names = zipNames([...listed.keys()]);
  checkCount(names.length);
  const files: ZipFile[] = [];
  let total = 0;
  for (const name of names) {
    const object = listed.get(name)!;
    total += entryLength(folder, name, object.size);
    if (total > MAX_OFFSET) throw tooLarge();
    const known = await crcs.ofObject(store, object);
    if (!known) continue;
    const relative = object.relative;
    files.push({ name, size: object.size, mtimeMs: known.mtimeMs, crc: known.crc, read: (range) => store.read(relative, range) });
  }
  checkCount(files.length);
  return zipOf(folder, files);
}

/** Stops before reading more CRCs once the set cannot fit a classic ZIP anyway. */
function tooLarge(): AppError {
  return new AppError('not_found', 'This set is too large for one ZIP (4 GiB); download the photos one by one');
}

/** A local header's length and the file's: what one entry adds to the ZIP's offsets. */
const entryLength = (folder: string, name: string, size: number) => 30 + Buffer.byteLength(`${folder}/${name}`) + size;

function zipOf(folder: string, files: readonly ZipFile[]): Representation {
  const entries: Entry[] = [];
  const segments: Segment[] = [];
  let offset = 0;
  const tag = createHash('sha1');
  let newest = 0;
  for (const file of files) {
    const encoded = Buffer.from(`${folder}/${file.name}`, 'utf8');
    const header = localHeader(encoded, file);
    entries.push({ ...file, offset });
    segments.push({ start: offset, buffer: header });
    segments.push({ start: offset + header.length, file });
    offset += header.length + file.size;
    if (offset > MAX_OFFSET) throw tooLarge();
    tag.update(`${file.name}\u0000${file.size}\u0000${file.crc}\u0000${Math.floor(file.mtimeMs / 1000)}\n`);
    newest = Math.max(newest, file.mtimeMs);
  }
  const central = Buffer.concat(entries.map((e) => centralHeader(Buffer.from(`${folder}/${e.name}`, 'utf8'), e)));
  const tail = Buffer.concat([central, endOfCentralDirectory(entries.length, central.length, offset)]);
  segments.push({ start: offset, buffer: tail });
  const size = offset + tail.length;

  return {
    size,
    etag: `"z-${tag.digest('base64url').slice(0, 22)}-${size.toString(16)}"`,
    lastModified: new Date(Math.floor(newest / 1000) * 1000),
    type: 'application/zip',
    read: (range) => Readable.from(bytesOf(segments, range)),
  };
}

async function* bytesOf(segments: readonly Segment[], { start, end }: ByteRange): AsyncGenerator<Buffer> {
  for (const segment of segments) {
    const length = 'buffer' in segment ? segment.buffer.length : segment.file.size;
    const from = Math.max(start, segment.start);
    const to = Math.min(end, segment.start + length - 1);
    if (from > to) continue;
    if ('buffer' in segment) {
      yield segment.buffer.subarray(from - segment.start, to - segment.start + 1);
    } else {
      for await (const chunk of segment.file.read({ start: from - segment.start, end: to - segment.start }))
        yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
  }
}
