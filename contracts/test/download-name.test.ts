import { describe, expect, it } from 'vitest';
import { videoDownloadName, vodDownloadName } from '../src/download-name';

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
