import { useEffect, useState } from 'react';
import { LockedNotice } from '../access/LockedNotice';
import { mayViewMembersArea, ownsVod, useAccess, type Access } from '../access/useAccess';
import { getPlayback, type PlayableType, type Playback } from './api/playback';
import { DownloadChoices } from './DownloadChoices';
import { VideoPlayer } from './VideoPlayer';

/** While the encoder works on this item, ask again this often (the player appears when it is done). */
const PREPARING_POLL_MS = 10_000;

type Loaded = { key: string; playback: Playback } | { key: string; error: true };

/**
 * `/api/playback` for this session. Asked again when the session changes (sign-in, a purchase:
 * `/api/me`'s membership and VODs) and, while the files are being prepared, every 10 s; the previous
 * answer stays on screen meanwhile.
 */
function usePlayback(type: PlayableType, folder: string, access: Access): Loaded | null {
  const entitled = type === 'vod' ? ownsVod(access, folder) : mayViewMembersArea(access);
  const key = `${type}/${folder}/${access.status}/${entitled}`;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (access.status === 'unknown') return undefined;
    const controller = new AbortController();
    getPlayback(type, folder, controller.signal).then(
      (playback) => setLoaded({ key, playback }),
      () => {
        if (!controller.signal.aborted) setLoaded({ key, error: true });
      },
    );
    return () => controller.abort();
  }, [key, type, folder, access.status, tick]);

  const preparing = loaded && 'playback' in loaded && loaded.playback.state === 'preparing';
  useEffect(() => {
    if (!preparing) return undefined;
    const timer = setTimeout(() => setTick((n) => n + 1), PREPARING_POLL_MS);
    return () => clearTimeout(timer);
  }, [preparing, loaded]);

  return loaded && loaded.key.startsWith(`${type}/${folder}/`) ? loaded : null;
}

function Preparing({ playback, noun }: { playback: Playback; noun: string }) {
  if (playback.state === 'failed') {
    return (
      <p className="player-status" role="status">
        This {noun} could not be prepared for playback. The download below has the original.
      </p>
    );
  }
  // 0 is also "waiting in the queue": show a figure once the encoder has started on it.
  const percent = playback.progress ? Math.round(playback.progress * 100) : null;
  return (
    <div className="player-status" role="status">
      <p>
        This {noun} is being prepared for playback{percent === null ? '' : ` (${percent} %)`}. You can download it meanwhile.
      </p>
      {percent === null ? null : <progress max={100} value={percent} aria-label="Preparing for playback" />}
    </div>
  );
}

/** Above the player while it plays the original: the smaller sizes and frames come later, or did not. */
function PlayingOriginal({ playback, noun }: { playback: Playback; noun: string }) {
  return (
    <p className="player-status" role="status">
      {playback.state === 'failed'
        ? `This ${noun} could not be prepared in smaller sizes: the player plays the original file.`
        : `The player plays the original file while this ${noun} is prepared in smaller sizes.`}
    </p>
  );
}

/** A public trailer: muted, looping, inline (it may start by itself because it is muted). */
function Trailer({ playback }: { playback: Playback }) {
  if (playback.state !== 'ready' || !playback.trailer) return null;
  return (
    <div className="player">
      <video
        className="player-video player-trailer"
        src={playback.trailer}
        poster={playback.poster ?? undefined}
        muted
        loop
        autoPlay
        playsInline
        preload="auto"
        aria-label={`Trailer: ${playback.updatename}`}
      />
    </div>
  );
}

function Locked({ playback, access, type }: { playback: Playback; access: Access; type: PlayableType }) {
  if (playback.access === 'withdrawn') {
    return (
      <p className="locked-notice" role="note">
        Media access has been withdrawn for this account.
      </p>
    );
  }
  if (type === 'vod') {
    // Buying is the VOD page's own row (Buy for $…); this only says why the full show is not here.
    return (
      <p className="locked-notice" role="note">
        {playback.state === 'ready' && playback.trailer ? 'This is the trailer. ' : ''}
        {access.status === 'visitor' ? 'Sign in and buy this VOD to watch all of it.' : 'Buy this VOD to watch all of it.'}
      </p>
    );
  }
  return <LockedNotice access={access} what="This video" joinLabel="Join to watch and download" />;
}

/**
 * The player area of /video/{folder} and /vod/{folder}: the player for whoever may play the item,
 * the trailer and the locked notice for everyone else, "being prepared" while the encoder works.
 * The page keeps its own Download button (the original); below the player, every size to download.
 */
export function PlayerSection({ type, folder, onGone }: { type: PlayableType; folder: string; onGone?: () => void }) {
  const access = useAccess();
  const loaded = usePlayback(type, folder, access);
  const noun = type === 'vod' ? 'VOD' : 'video';
  // Taken down while it played: its downloads would answer 410 too, so they go with the player.
  const [goneFolder, setGoneFolder] = useState<string | null>(null);
  const gone = goneFolder === folder;

  // Loading, or the API is away: the page's Download and frames still work, so say nothing loud.
  if (!loaded || 'error' in loaded) {
    return loaded ? (
      <p className="player-status muted" role="status">
        The player is not available right now.
      </p>
    ) : null;
  }
  const { playback } = loaded;
  if (playback.access !== 'granted') {
    return (
      <section className="player-section" aria-label="Trailer">
        <Trailer playback={playback} />
        <Locked playback={playback} access={access} type={type} />
      </section>
    );
  }
  return (
    <section className="player-section" aria-label="Player">
      {playback.state !== 'ready' && playback.renditions.length ? <PlayingOriginal playback={playback} noun={noun} /> : null}
      {playback.renditions.length ? (
        <VideoPlayer
          key={playback.path}
          playback={playback}
          onGone={() => {
            setGoneFolder(folder);
            onGone?.();
          }}
        />
      ) : (
        <Preparing playback={playback} noun={noun} />
      )}
      {gone ? null : <DownloadChoices downloads={playback.downloads} />}
    </section>
  );
}
