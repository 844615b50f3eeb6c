// JSON shapes of spec §3, as the bff sends them: the types come from the one contract the bff's
// answers are checked against (contracts/src/api.ts). Types only: the SPA ships no schema code.
export type {
  ContentType,
  FreeSetItem,
  ModelDetail,
  ModelItem,
  PhotoItem,
  PhotoSetDetail,
  SearchClipHit,
  SearchFacets,
  SearchHit,
  SearchPhotoHit,
  SearchResult,
  TeaserItem,
  UpdateItem,
  VideoItem,
  VideoPrename,
  VodDetail,
  VodItem,
} from '@media-site/contracts/api';
