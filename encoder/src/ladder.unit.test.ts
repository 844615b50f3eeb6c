import { describe, expect, it } from 'vitest';
import { fitLongSide, maxrateFor, planLadder, spriteInterval, trailerCut } from './ladder';
import { parseProbe, type SourceInfo } from './probe';
import { spriteLayout, thumbnailsVtt, vttTime } from './sprite';

const source = (width: number, height: number, extra: Partial<SourceInfo> = {}): SourceInfo => ({
  duration: 60,
  width,
  height,
  fps: 25,
  interlaced: false,
  hasAudio: true,
  ...extra,
});
const labels = (s: SourceInfo) => planLadder(s).map((r) => `${r.label} ${r.width}x${r.height}`);

describe('rendition ladder', () => {
  it('makes 1080p/720p/480p from full HD and never more than 1080p', () => {
    expect(labels(source(1920, 1080))).toEqual(['1080p 1920x1080', '720p 1280x720', '480p 854x480']);
    expect(labels(source(3840, 2160))).toEqual(['1080p 1920x1080', '720p 1280x720', '480p 854x480']);
  });

  it('never upscales: a small source gets one rendition at its own size', () => {
    expect(labels(source(160, 90))).toEqual(['90p 160x90']);
    expect(labels(source(640, 360))).toEqual(['360p 640x360']);
    expect(labels(source(1280, 720))).toEqual(['720p 1280x720', '480p 854x480']);
    // 576 → 480 would be too small a step to be worth a file.
    expect(labels(source(1024, 576))).toEqual(['576p 1024x576']);
  });

  it('uses the short side for portrait video and keeps sizes even', () => {
    expect(labels(source(1080, 1920))).toEqual(['1080p 1080x1920', '720p 720x1280', '480p 480x854']);
    expect(labels(source(321, 241))).toEqual(['240p 320x240']);
  });

  it('spends fewer bits on smaller frames and more on high frame rates', () => {
    const [hd, sd] = [maxrateFor({ width: 1920, height: 1080 }, 25), maxrateFor({ width: 854, height: 480 }, 25)];
    expect(hd).toBe(5_000_000);
    expect(sd).toBeLessThan(hd / 2);
    expect(maxrateFor({ width: 1920, height: 1080 }, 60)).toBe(7_000_000);
    expect(maxrateFor({ width: 160, height: 90 }, 25)).toBeGreaterThanOrEqual(100_000);
  });

  it('sizes sprite tiles by the long side and cuts the trailer from a tenth in', () => {
    expect(fitLongSide({ width: 1920, height: 1080 }, 160)).toEqual({ width: 160, height: 90 });
    expect(fitLongSide({ width: 100, height: 50 }, 160)).toEqual({ width: 100, height: 50 });
    expect(trailerCut(600)).toEqual({ start: 60, length: 6 });
    expect(trailerCut(2)).toEqual({ start: 0, length: 2 });
  });
});

describe('seek-bar sprite and thumbnails track', () => {
  it('takes a frame a second, a tenth of a short clip, at most 200', () => {
    expect(spriteInterval(60)).toBe(1);
    expect(spriteInterval(2)).toBeCloseTo(0.2);
    expect(spriteInterval(7200)).toBe(36);
  });

  it('writes cues with media fragments into a 10-column grid, the last cue to the end', () => {
    const layout = spriteLayout({ width: 160, height: 90 }, 12);
    expect(layout).toMatchObject({ columns: 10, rows: 2 });
    const vtt = thumbnailsVtt(layout, 1, 11.5, 'sprite.jpg');
    expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
    expect(vtt).toContain('00:00:00.000 --> 00:00:01.000\nsprite.jpg#xywh=0,0,160,90\n');
    expect(vtt).toContain('00:00:10.000 --> 00:00:11.000\nsprite.jpg#xywh=0,90,160,90\n');
    expect(vtt).toContain('00:00:11.000 --> 00:00:11.500\nsprite.jpg#xywh=160,90,160,90\n');
    expect(vtt.match(/-->/g)).toHaveLength(12);
    expect(vttTime(3725.5)).toBe('01:02:05.500');
  });
});

describe('ffprobe answer', () => {
  const video = {
    codec_type: 'video',
    width: 720,
    height: 480,
    sample_aspect_ratio: '32:27',
    avg_frame_rate: '30000/1001',
    field_order: 'tt',
  };
  it('applies the sample aspect ratio and rotation, and notes interlacing and sound', () => {
    expect(parseProbe({ streams: [video, { codec_type: 'audio' }], format: { duration: '12.5' } })).toEqual({
      duration: 12.5,
      width: 853,
      height: 480,
      fps: 30000 / 1001,
      interlaced: true,
      hasAudio: true,
    });
    const phone = { codec_type: 'video', width: 1920, height: 1080, side_data_list: [{ rotation: -90 }] };
    expect(parseProbe({ streams: [phone], format: { duration: '3' } })).toMatchObject({ width: 1080, height: 1920, hasAudio: false });
  });

  it('refuses a file without a video stream or a duration', () => {
    expect(() => parseProbe({ streams: [{ codec_type: 'audio' }], format: { duration: '3' } })).toThrow(/no video stream/);
    expect(() => parseProbe({ streams: [video], format: {} })).toThrow(/duration/);
  });
});
