import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { AppError, notFound } from '../errors';
import type { ByteRange } from './range';
import type { Representation } from './send';

// The photo files a set's ZIP holds (ops/src/ingest/layout.ts IMAGE_EXTENSIONS).
const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp']);
// Classic ZIP limits (no ZIP64): 65,535 entries, 4 GiB - 1 for any size or offset.
const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;
const UTF8_NAMES = 0x0800;
const VERSION = 20;
const READ_CHUNK = 1024 * 1024;

interface Entry {
  name: string;
  absolute: string;
  size: number;
  mtime: Date;
  crc: number;
  offset: number;
  header: Buffer;
}

type Segment = { start: number; buffer: Buffer } | { start: number; absolute: string; size: number };

/** `{folder}/{folder}.zip` in a family with set ZIPs (photos): the whole set as one ZIP (see README "Set ZIP"). */
export function isSetZip(rest: readonly string[]): boolean {
  return rest.length === 2 && rest[1] === `${rest[0]}.zip`;
}

/**
 * CRC-32 of every file already read once, by path, size, mtime and inode: a resumed download (or
 * the next member) does not read the whole set again before its first byte.
 */
export class CrcCache {
  private readonly map = new Map<string, number>();
  constructor(private readonly maxEntries = 20_000) {}

  async of(absolute: string, size: number, mtimeMs: number, ino: number): Promise<number> {
    const key = `${absolute}\u0000${size}\u0000${mtimeMs}\u0000${ino}`;
    const known = this.map.get(key);
    if (known !== undefined) return known;
    let crc = 0;
    for await (const chunk of createReadStream(absolute, { highWaterMark: READ_CHUNK })) crc = crc32(chunk as Buffer, crc);
    if (this.map.size >= this.maxEntries) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, crc);
    return crc;
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

function localHeader(name: Buffer, e: { crc: number; size: number; mtime: Date }): Buffer {
  const { time, date } = dosDateTime(e.mtime);
  const b = Buffer.alloc(30);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(VERSION, 4);
  b.writeUInt16LE(UTF8_NAMES, 6);
  b.writeUInt16LE(0, 8); // STORE: photos are compressed already
  b.writeUInt16LE(time, 10);
  b.writeUInt16LE(date, 12);
  b.writeUInt32LE(e.crc >>> 0, 14);
  b.writeUInt32LE(e.size, 18);
  b.writeUInt32LE(e.size, 22);
  b.writeUInt16LE(name.length, 26);
  b.writeUInt16LE(0, 28);
  return Buffer.concat([b, name]);
}

function centralHeader(name: Buffer, e: Entry): Buffer {
  const { time, date } = dosDateTime(e.mtime);
  const b = Buffer.alloc(46);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE((3 << 8) | VERSION, 4); // made by: Unix, so the mode below is read
  b.writeUInt16LE(VERSION, 6);
  b.writeUInt16LE(UTF8_NAMES, 8);
  b.writeUInt16LE(0, 10);
  b.writeUInt16LE(time, 12);
  b.writeUInt16LE(date, 14);
  b.writeUInt32LE(e.crc >>> 0, 16);
  b.writeUInt32LE(e.size, 20);
  b.writeUInt32LE(e.size, 24);
  b.writeUInt16LE(name.length, 28);
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
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isFile() && !d.name.startsWith('.') && IMAGE_EXTENSIONS.has(extname(d.name).toLowerCase()))
    .map((d) => d.name)
    .sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1));
  if (names.length === 0) throw notFound();
  if (names.length > MAX_ENTRIES) throw new AppError('not_found', 'This set has too many photos for one ZIP');

  const entries: Entry[] = [];
  const segments: Segment[] = [];
  let offset = 0;
  const tag = createHash('sha1');
  let newest = 0;
  for (const name of names) {
    const absolute = join(dir, name);
    const info = await stat(absolute);
    const crc = await crcs.of(absolute, info.size, info.mtimeMs, info.ino);
    const encoded = Buffer.from(`${folder}/${name}`, 'utf8');
    const header = localHeader(encoded, { crc, size: info.size, mtime: info.mtime });
    entries.push({ name, absolute, size: info.size, mtime: info.mtime, crc, offset, header });
    segments.push({ start: offset, buffer: header });
    segments.push({ start: offset + header.length, absolute, size: info.size });
    offset += header.length + info.size;
    if (offset > MAX_OFFSET) throw new AppError('not_found', 'This set is too large for one ZIP (4 GiB); download the photos one by one');
    tag.update(`${name}\u0000${info.size}\u0000${crc}\u0000${Math.floor(info.mtimeMs / 1000)}\n`);
    newest = Math.max(newest, info.mtimeMs);
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
    const length = 'buffer' in segment ? segment.buffer.length : segment.size;
    const from = Math.max(start, segment.start);
    const to = Math.min(end, segment.start + length - 1);
    if (from > to) continue;
    if ('buffer' in segment) {
      yield segment.buffer.subarray(from - segment.start, to - segment.start + 1);
    } else {
      for await (const chunk of createReadStream(segment.absolute, {
        start: from - segment.start,
        end: to - segment.start,
        highWaterMark: READ_CHUNK,
      }))
        yield chunk as Buffer;
    }
  }
}
