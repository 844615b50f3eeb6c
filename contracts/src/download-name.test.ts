import { describe, expect, it } from 'vitest';
import {
  parseRenditionDownloadName,
  parseRenditionDownloadUrl,
  renditionDownloadName,
  renditionDownloadUrl,
  videoDownloadName,
  vodDownloadName,
} from './download-name';

describe('videoDownloadName', () => {
  it.each([
    ['clip-a001.mp4', 'clip-a001.mp4'],
    ['clip-b001.mpg', 'clip-b001.mpg'],
    ['clip-c001.wmv', 'clip-c001.wmv'],
    ['Beach HD', 'Beach HD001.mp4'],
    ['studio-HD-2', 'studio-HD-2001.mp4'],
    ['plain', 'plain001.mpg'],
    ['hd lowercase', 'hd lowercase001.mpg'],
    ['clip002.mp4', 'clip002.mp4001.mpg'],
  ])('%s → %s', (prename, expected) => {
    expect(videoDownloadName(prename)).toBe(expected);
  });
});

describe('vodDownloadName', () => {
  const base = { prename: 'show-one.wmv', path: 'vod-show-one', format: 0 };
  it('on the cutoff day uses the prename with the format extension', () => {
    expect(vodDownloadName({ ...base, datetoupload: '2024-01-28' })).toBe('show-one.mp4');
  });
  it('after the cutoff, format 1 is mpg', () => {
    expect(vodDownloadName({ ...base, format: 1, datetoupload: '2025-05-01' })).toBe('show-one.mpg');
  });
  it('any non-zero format is mpg', () => {
    expect(vodDownloadName({ ...base, format: 7, datetoupload: '2025-05-01' })).toBe('show-one.mpg');
  });
  it('a prename without extension gets one', () => {
    expect(vodDownloadName({ ...base, prename: 'bare', datetoupload: '2024-02-01' })).toBe('bare.mp4');
  });
  it('the day before the cutoff uses the path', () => {
    expect(vodDownloadName({ ...base, datetoupload: '2024-01-27' })).toBe('vod-show-one.mp4');
  });
  it('an early path that already has an extension is kept as is', () => {
    expect(vodDownloadName({ ...base, path: 'old-show.wmv', format: 1, datetoupload: '2019-03-03' })).toBe('old-show.wmv');
  });
});

describe('rendition downloads', () => {
  it('names a rendition after the original: base without extension, _label.mp4', () => {
    expect(renditionDownloadName('Clip_A1_HD001.mp4', '720p')).toBe('Clip_A1_HD001_720p.mp4');
    expect(renditionDownloadName('plain001.mpg', '1080p')).toBe('plain001_1080p.mp4');
    expect(renditionDownloadName('old-vod-path', '480p')).toBe('old-vod-path_480p.mp4');
    expect(() => renditionDownloadName('a.mp4', '../720p')).toThrow();
  });

  it.each([
    ['video', 'clip-1', 'Clip_A1_HD001.mp4', '720p'],
    ['vod', 'show one', 'Shów ünï 日本.mp4', '1080p'],
    ['video', 'a_b', 'x_1080p001.mp4', '240p'],
    ['vod', 'weird', 'name with "quotes" & %.mpg', '360p'],
  ] as const)('round-trips %s %s %s %s', (type, path, original, label) => {
    const url = renditionDownloadUrl(type, path, original, label);
    expect(url.startsWith(`/members/${type}renditions/${path}/`)).toBe(true);
    const parsed = parseRenditionDownloadUrl(url);
    expect(parsed).toEqual({ type, path, label, name: renditionDownloadName(original, label), file: `${label}.mp4` });
    expect(parseRenditionDownloadName(parsed!.name)?.base).toBe(original.replace(/\.[A-Za-z0-9]{1,5}$/, ''));
  });

  it('refuses playback names, other families and path tricks', () => {
    for (const bad of [
      '/members/videorenditions/clip-1/720p.mp4',
      '/members/videorenditions/clip-1/_720p.mp4',
      '/members/videorenditions/clip-1/a_720p.mkv',
      '/members/videorenditions/clip-1/a_720.mp4',
      '/members/videorenditions/clip-1/a_p.mp4',
      '/members/videorenditions/clip-1/a_12345p.mp4',
      '/members/video/clip-1/a_720p.mp4',
      '/members/videopreviews/clip-1/a_720p.mp4',
      '/members/videorenditions/../video/a_720p.mp4',
      '/members/videorenditions/clip-1/../a_720p.mp4',
      '/members/videorenditions/./a_720p.mp4',
      '/members/videorenditions/clip%2F..%2Fx/a_720p.mp4',
      '/members/videorenditions/clip%5cx/a_720p.mp4',
      '/members/videorenditions/clip-1/..%2f..%2fa_720p.mp4',
      '/members/videorenditions/clip\\x/a_720p.mp4',
      '/members/videorenditions/clip-1/a\u0000_720p.mp4',
      '/members/videorenditions/.partial/a_720p.mp4',
      '/members/videorenditions/clip-1/.a_720p.mp4',
      '/members/videorenditions//a_720p.mp4',
      '/members/videorenditions/clip-1/x/a_720p.mp4',
      '/members/constructor/clip-1/a_720p.mp4',
      '/members/__proto__/clip-1/a_720p.mp4',
    ]) {
      expect(parseRenditionDownloadUrl(bad), bad).toBeNull();
    }
  });
});
