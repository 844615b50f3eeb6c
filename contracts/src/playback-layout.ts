/**
 * Where the playable files made from a video or VOD live under MEDIA_ROOT, and so under /members:
 * one place shared by the encoder (db), the media service (access, disposition) and the bff (URLs).
 *
 *   {type}renditions/{path}/{label}.mp4   H.264/AAC, +faststart; needs what the original needs
 *   {type}previews/{path}/poster.jpg      a frame for the player's poster         } public, like
 *   {type}previews/{path}/sprite.jpg      seek-bar preview frames in a grid       } thumbnails
 *   {type}previews/{path}/thumbs.vtt      WebVTT cues `sprite.jpg#xywh=x,y,w,h`   }
 *   {type}previews/{path}/trailer.mp4     a few seconds for visitors              }
 */
export type PlayableType = 'video' | 'vod';

export const PLAYABLE_TYPES: readonly PlayableType[] = ['video', 'vod'];

export const RENDITION_FAMILIES = { video: 'videorenditions', vod: 'vodrenditions' } as const;
export const PREVIEW_FAMILIES = { video: 'videopreviews', vod: 'vodpreviews' } as const;

export type RenditionFamily = (typeof RENDITION_FAMILIES)[PlayableType];
export type PreviewFamily = (typeof PREVIEW_FAMILIES)[PlayableType];

export const PREVIEW_FILES = { poster: 'poster.jpg', sprite: 'sprite.jpg', thumbnails: 'thumbs.vtt', trailer: 'trailer.mp4' } as const;

/** `720p` → `720p.mp4`; labels are `<short side>p`. */
export const renditionFile = (label: string): string => `${label}.mp4`;

/** Site path of a rendition: `/members/videorenditions/{path}/720p.mp4`. */
export const renditionUrl = (type: PlayableType, path: string, label: string): string =>
  `/members/${RENDITION_FAMILIES[type]}/${path}/${renditionFile(label)}`;

/** Site path of a preview file: `/members/videopreviews/{path}/poster.jpg`. */
export const previewUrl = (type: PlayableType, path: string, file: keyof typeof PREVIEW_FILES): string =>
  `/members/${PREVIEW_FAMILIES[type]}/${path}/${PREVIEW_FILES[file]}`;

/** The original a rendition family stands for (access follows the original's rule). */
export const RENDITION_OF: Record<RenditionFamily, PlayableType> = { videorenditions: 'video', vodrenditions: 'vod' };
