import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface FfmpegTools {
  ffmpeg: string;
  ffprobe: string;
}

/** Whether ffmpeg and ffprobe both run; asked once per ingest and before a worker starts. */
export async function ffmpegWorks(tools: FfmpegTools): Promise<boolean> {
  try {
    await Promise.all([run(tools.ffmpeg, ['-version'], { timeout: 10_000 }), run(tools.ffprobe, ['-version'], { timeout: 10_000 })]);
    return true;
  } catch {
    return false;
  }
}
