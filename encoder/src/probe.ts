import { z } from 'zod';
import { killedBySignal, runTool } from './ffmpeg-run';

export interface SourceInfo {
  /** Seconds. */
  duration: number;
  /** Display size: sample aspect ratio applied, rotation (90/270) applied. */
  width: number;
  height: number;
  /** Frames per second, when the stream says (0 otherwise). */
  fps: number;
  interlaced: boolean;
  hasAudio: boolean;
}

const ratio = (text: string | undefined): number => {
  const [a, b] = (text ?? '').split(/[:/]/).map(Number);
  return a && b && Number.isFinite(a / b) ? a / b : 0;
};

const probeJson = z.object({
  streams: z
    .array(
      z
        .object({
          codec_type: z.string().optional(),
          width: z.number().optional(),
          height: z.number().optional(),
          sample_aspect_ratio: z.string().optional(),
          avg_frame_rate: z.string().optional(),
          r_frame_rate: z.string().optional(),
          field_order: z.string().optional(),
          side_data_list: z.array(z.object({ rotation: z.number().optional() }).loose()).optional(),
          tags: z.object({ rotate: z.string().optional() }).loose().optional(),
        })
        .loose(),
    )
    .default([]),
  format: z.object({ duration: z.string().optional() }).loose().default({}),
});

export class UnplayableSource extends Error {}

/** Reads what the encoder needs from ffprobe's JSON. */
export function parseProbe(json: unknown): SourceInfo {
  const parsed = probeJson.safeParse(json);
  if (!parsed.success) throw new UnplayableSource('ffprobe gave an unexpected answer');
  const { streams, format } = parsed.data;
  const video = streams.find((s) => s.codec_type === 'video' && s.width && s.height);
  if (!video?.width || !video.height) throw new UnplayableSource('no video stream');
  const duration = Number.parseFloat(format.duration ?? '');
  if (!Number.isFinite(duration) || duration <= 0) throw new UnplayableSource('no readable duration');
  const sar = ratio(video.sample_aspect_ratio) || 1;
  let width = Math.round(video.width * sar);
  let height = video.height;
  const rotation = video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? Number(video.tags?.rotate ?? 0);
  if (Math.abs(rotation) % 180 === 90) [width, height] = [height, width];
  const fps = ratio(video.avg_frame_rate) || ratio(video.r_frame_rate);
  return {
    duration,
    width,
    height,
    fps: fps > 0 && fps < 1000 ? fps : 0,
    interlaced: ['tt', 'bb', 'tb', 'bt'].includes(video.field_order ?? ''),
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
  };
}

export async function probeSource(ffprobe: string, file: string): Promise<SourceInfo> {
  let stdout: string;
  try {
    ({ stdout } = await runTool(ffprobe, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], {
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    }));
  } catch (err) {
    // Killed (a stop, the timeout, the OOM killer): not the file's fault, so not a permanent failure.
    if (killedBySignal(err))
      throw new Error(`ffprobe was stopped (${String((err as { signal?: unknown }).signal)}) while reading the file`, { cause: err });
    throw new UnplayableSource(
      `ffprobe could not read the file (${err instanceof Error ? (err.message.split('\n')[1] ?? err.message.split('\n')[0]) : String(err)})`,
    );
  }
  return parseProbe(JSON.parse(stdout));
}
