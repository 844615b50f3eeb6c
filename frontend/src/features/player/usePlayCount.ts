import { useEffect, type RefObject } from 'react';
import { COMPLETE_SHARE } from '@media-site/contracts/stats-vocabulary';
import { reportActivity, type PlayableType } from './api/playback';
import { listen } from './listen';

/**
 * The console's Stats (plays and finishes per item and day): one "play" at the first frame this
 * page shows, one "complete" once playback reaches COMPLETE_SHARE of the running time or its end.
 * Each at most once per page; the bff also counts each once per member, item and day.
 */
export function usePlayCount(
  videoRef: RefObject<HTMLVideoElement | null>,
  type: PlayableType,
  folder: string,
  knownDuration: number | null,
): void {
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return undefined;
    let played = false;
    let finished = false;
    const onPlaying = () => {
      if (played) return;
      played = true;
      void reportActivity(type, folder, 'play');
    };
    const finish = () => {
      if (finished || !played) return;
      finished = true;
      void reportActivity(type, folder, 'complete');
    };
    const onTime = () => {
      const duration = knownDuration ?? (Number.isFinite(video.duration) ? video.duration : null);
      if (duration && video.currentTime >= duration * COMPLETE_SHARE) finish();
    };
    return listen(video, { playing: onPlaying, timeupdate: onTime, ended: finish });
  }, [videoRef, type, folder, knownDuration]);
}
