/** Site-absolute thumbnail paths (the media service serves them under /members). */
export const photoSetThumbnail = (path: string): string => `/members/photosthumbs/${path}/large.jpg`;
export const videoThumbnail = (path: string): string => `/members/videothumbs/${path}/${path}_02.jpg`;
export const vodThumbnail = (path: string): string => `/members/vodthumbs/${path}/${path}_02.jpg`;
