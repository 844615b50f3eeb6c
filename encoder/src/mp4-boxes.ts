import { open } from 'node:fs/promises';

/**
 * The top-level box types of an MP4 file in order, reading only box headers (8 or 16 bytes each),
 * so a multi-gigabyte file costs a few reads. `moov` before `mdat` is what `+faststart` means:
 * a browser can start playing, and seek, before the whole file has arrived.
 */
export async function topLevelBoxes(file: string, max = 64): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(16);
    const boxes: string[] = [];
    let offset = 0;
    while (offset + 8 <= size && boxes.length < max) {
      const { bytesRead } = await handle.read(header, 0, 16, offset);
      if (bytesRead < 8) break;
      let length = header.readUInt32BE(0);
      boxes.push(header.toString('latin1', 4, 8));
      if (length === 1 && bytesRead >= 16) length = Number(header.readBigUInt64BE(8));
      else if (length === 0) break; // the box runs to the end of the file
      if (length < 8) break;
      offset += length;
    }
    return boxes;
  } finally {
    await handle.close();
  }
}

export async function isFastStart(file: string): Promise<boolean> {
  const boxes = await topLevelBoxes(file);
  const moov = boxes.indexOf('moov');
  const mdat = boxes.indexOf('mdat');
  return moov >= 0 && mdat >= 0 && moov < mdat;
}
