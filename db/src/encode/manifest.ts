import { z } from 'zod';

/**
 * What one encode made, stored as JSON on the job row (media_jobs.manifest) and read by the bff to
 * answer "what can this session play". File names are relative to the item's rendition or preview
 * folder (contracts/src/playback-layout.ts).
 */
const size = { width: z.number().int().positive(), height: z.number().int().positive() };

export const renditionSchema = z.object({
  label: z.string().regex(/^\d{1,4}p$/),
  file: z.string(),
  ...size,
  /** Bits per second of the whole file (video + audio), as ffprobe measures it. */
  bitrate: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** The `type` of a <source>: `video/mp4; codecs="avc1.64001f, mp4a.40.2"`. */
  mime: z.string(),
});

export const manifestSchema = z.object({
  version: z.literal(1),
  /** Seconds, of the renditions (what a player's seek bar spans). */
  duration: z.number().positive(),
  /** `bytes`: the original's size when it was encoded (the "Original" download's size); absent in manifests written before it was recorded. */
  source: z.object({ sig: z.string(), ...size, hasAudio: z.boolean(), bytes: z.number().int().nonnegative().optional() }),
  renditions: z.array(renditionSchema).min(1),
  poster: z.object({ file: z.string(), ...size }),
  sprite: z.object({ file: z.string(), ...size, frames: z.number().int().positive(), interval: z.number().positive() }),
  thumbnails: z.object({ file: z.string() }),
  trailer: z.object({ file: z.string(), ...size, duration: z.number().positive(), bytes: z.number().int().nonnegative() }),
  encodedAt: z.number().int(),
});

export type Rendition = z.infer<typeof renditionSchema>;
export type Manifest = z.infer<typeof manifestSchema>;

/** A stored manifest, or null when there is none or it does not parse (treated as "not encoded"). */
export function parseManifest(text: string | null | undefined): Manifest | null {
  if (!text) return null;
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
