import { emptyFields } from '../src/features/payment/formData';
import type { PaymentFields } from '../src/features/payment/formData';
import type { PhotoItem, UpdateItem, VideoItem, VodDetail, VodItem } from '../src/features/api/types';

export function photo(id: number): PhotoItem {
  return {
    photos_id: id,
    path: `set-${id}`,
    updatename: `Photo Set ${id}`,
    modelname: 'Model A1',
    datetoupload: '2024-02-01',
    thumbnail: `/members/photosthumbs/set-${id}/large.jpg`,
  };
}

export function video(id: number): VideoItem {
  return {
    video_id: id,
    path: `clip-${id}`,
    updatename: `Video ${id}`,
    modelname: 'Model B2',
    datetoupload: '2024-03-01',
    thumbnail: `/members/videothumbs/clip-${id}/large.jpg`,
  };
}

export function vod(id: number): VodItem {
  return {
    vod_id: id,
    path: `vod-${id}`,
    updatename: `VOD ${id}`,
    modelname: 'Model C3',
    datetoupload: '2024-04-01',
    prename: `vod-${id}.mp4`,
    format: 0,
    price: 24.99,
    thumbnail: `/members/vodthumbs/vod-${id}/large.jpg`,
  };
}

export function vodDetail(id: number): VodDetail {
  return { ...vod(id), download: `/members/vod/vod-${id}/vod-${id}.mp4` };
}

export function update(type: UpdateItem['type'], id: number): UpdateItem {
  return {
    type,
    id,
    path: `${type}-${id}`,
    thumbnail: `/members/${type}thumbs/${type}-${id}/large.jpg`,
    updatename: `${type} update ${id}`,
    modelname: 'Model D4',
    datetoupload: '2024-05-01',
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
