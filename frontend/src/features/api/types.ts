// JSON shapes of spec §3, as the bff sends them.
export type ContentType = 'photo' | 'video' | 'vod';

export interface UpdateItem {
  type: ContentType;
  path: string;
  thumbnail: string;
  updatename: string;
  modelname: string;
  datetoupload: string;
}

export interface PhotoItem {
  photos_id: number;
  path: string;
  updatename: string;
  modelname: string;
  datetoupload: string;
  thumbnail?: string;
}

export interface VideoItem {
  video_id: number;
  path: string;
  updatename: string;
  modelname: string;
  datetoupload: string;
  thumbnail?: string;
}

export interface VodItem {
  vod_id: number;
  path: string;
  updatename: string;
  modelname: string;
  datetoupload: string;
  prename: string;
  format: number;
  price: number | string;
  thumbnail?: string;
}

export interface VodDetail extends VodItem {
  download: string;
}

export interface ModelItem {
  modelname: string;
  thumbnail: string | null;
}

export interface ModelDetail {
  photos: { photo_id: number; path: string; updatename: string }[];
  videos: { video_id: number; path: string; updatename: string }[];
  vods: { vod_id: number; path: string; updatename: string }[];
}

export interface SearchHit {
  path: string;
  updatename: string;
  modelname: string;
  thumbnail?: string;
}

export interface SearchResult {
  photos: SearchHit[];
  videos: SearchHit[];
  vods: SearchHit[];
}

export interface VideoPrename {
  prename: string;
  download: string;
}
