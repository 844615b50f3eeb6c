import { emptyFields } from '../features/payment/formData';
import type { PaymentFields } from '../features/payment/formData';
import type { PhotoItem, UpdateItem, VideoItem, VodDetail, VodItem } from '../features/api/types';
import type { ContinueItem } from '../features/player/api/playback';

/** What every listed item carries: its folder, title, model, upload date and a thumbnail under `/members/{thumbs}/`. */
function listed(path: string, updatename: string, modelname: string, datetoupload: string, thumbs: string) {
  return { path, updatename, modelname, datetoupload, thumbnail: `/members/${thumbs}/${path}/large.jpg` };
}

export function photo(id: number): PhotoItem {
  return { photos_id: id, ...listed(`set-${id}`, `Photo Set ${id}`, 'Model A1', '2024-02-01', 'photosthumbs'), photocount: 20 + id };
}

export function video(id: number): VideoItem {
  // 12:34 for the first; every third one neither measured nor encoded yet.
  return {
    video_id: id,
    ...listed(`clip-${id}`, `Video ${id}`, 'Model B2', '2024-03-01', 'videothumbs'),
    duration: id % 3 ? 754 + id - 1 : null,
    preview: id % 3 ? `/members/videopreviews/clip-${id}/thumbs.vtt` : null,
  };
}

export function vod(id: number): VodItem {
  return {
    vod_id: id,
    ...listed(`vod-${id}`, `VOD ${id}`, 'Model C3', '2024-04-01', 'vodthumbs'),
    prename: `vod-${id}.mp4`,
    format: 0,
    price: 24.99,
    // 1:02:03 for the first.
    duration: 3723 + id - 1,
    preview: `/members/vodpreviews/vod-${id}/thumbs.vtt`,
  };
}

export function vodDetail(id: number): VodDetail {
  return { ...vod(id), download: `/members/vod/vod-${id}/vod-${id}.mp4`, tags: ['studio', 'black and white'] };
}

export function update(type: UpdateItem['type'], id: number): UpdateItem {
  return {
    type,
    id,
    ...listed(`${type}-${id}`, `${type} update ${id}`, 'Model D4', '2024-05-01', `${type}thumbs`),
    photocount: type === 'photo' ? 12 : null,
    duration: type === 'photo' ? null : 95,
    preview: type === 'photo' ? null : `/members/${type}previews/${type}-${id}/thumbs.vtt`,
  };
}

/** A member's unfinished video, as GET /api/positions lists it under Continue watching. */
export function continueItem(): ContinueItem {
  return {
    type: 'video',
    path: 'clip-1',
    updatename: 'Quiet Harbour',
    modelname: 'Model A1',
    thumbnail: null,
    seconds: 42.5,
    duration: 120.5,
    updatedAt: '2026-11-23T11:45:21.803Z',
  };
}

export function validFields(): PaymentFields {
  return {
    ...emptyFields(),
    username: 'new_member1',
    password: 'correct horse',
    email: 'member@example.com',
    nameOnCard: 'Pat Example',
    cardNumber: '4111 1111 1111 1111',
    expMonth: '12',
    expYear: '2027',
    cvv2: '123',
    firstName: 'Pat',
    lastName: 'Example',
    address1: '1 Test Road',
    city: 'Springfield',
    state: 'IL',
    country: 'US',
    postalCode: '62701',
    phoneNumber: '+1 555 010 0000',
  };
}
