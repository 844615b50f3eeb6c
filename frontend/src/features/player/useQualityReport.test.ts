import { describe, expect, it } from 'vitest';
import { PLAYER_REPORT_EVENTS_MAX } from '@media-site/contracts/player-quality';
import type { PlayerEvent } from '@media-site/contracts/player-report';
import { qualityTracker } from './useQualityReport';

function tracked(side = 720) {
  let clock = 0;
  let shortSide = side;
  const sent: PlayerEvent[][] = [];
  const t = qualityTracker(
    () => shortSide,
    (events) => sent.push(events),
    () => clock,
  );
  return {
    t,
    sent,
    at: (ms: number) => {
      clock = ms;
    },
    rendition: (next: number) => {
      shortSide = next;
    },
  };
}

describe('the player quality tracker', () => {
  it('times the first frame from the first play, once', () => {
    const { t, sent, at } = tracked();
    at(100);
    t.play();
    at(300);
    t.waiting(); // buffering before the first frame is part of the start, not a stall
    at(950);
    t.playing();
    t.interrupted();
    at(2000);
    t.play();
    at(2100);
    t.playing();
    t.flush();
    expect(sent).toEqual([[{ kind: 'start', rendition: 720, ms: 850 }]]);
  });

  it('counts a wait while playing as a stall, with its length, but not a wait for a seek or one ended by a pause', () => {
    const { t, sent, at, rendition } = tracked();
    t.play();
    t.playing();
    at(1000);
    t.waiting();
    at(2500);
    t.playing();
    // A seek's wait is the seek's.
    t.seeking();
    t.waiting();
    at(4000);
    t.seeked();
    t.playing();
    // Paused while waiting: not a stall to report.
    at(5000);
    t.waiting();
    at(9000);
    t.interrupted();
    t.playing();
    rendition(480);
    at(10_000);
    t.waiting();
    at(10_250);
    t.playing();
    t.flush();
    expect(sent).toEqual([
      [
        { kind: 'start', rendition: 720, ms: 0 },
        { kind: 'stall', rendition: 720, ms: 1500 },
        { kind: 'stall', rendition: 480, ms: 250 },
      ],
    ]);
  });

  it('reports quality changes and errors, and sends nothing when there is nothing', () => {
    const { t, sent } = tracked();
    t.flush();
    expect(sent).toEqual([]);
    t.switched(720, 720);
    t.switched(720, 1080);
    t.error(2);
    t.error(undefined);
    t.flush();
    expect(sent).toEqual([
      [
        { kind: 'switch', rendition: 1080, from: 720 },
        { kind: 'error', rendition: 720, error: 'network' },
        { kind: 'error', rendition: 720, error: 'other' },
      ],
    ]);
  });

  it(`sends a full batch of ${PLAYER_REPORT_EVENTS_MAX} at once, and nothing for a file of unknown size`, () => {
    const { t, sent, rendition } = tracked();
    for (let i = 0; i < PLAYER_REPORT_EVENTS_MAX + 1; i++) t.switched(720, i % 2 ? 480 : 1080);
    expect(sent.map((batch) => batch.length)).toEqual([PLAYER_REPORT_EVENTS_MAX]);
    expect(t.pending()).toBe(1);
    rendition(0);
    t.error(3);
    t.switched(0, 720);
    expect(t.pending()).toBe(1);
  });
});
