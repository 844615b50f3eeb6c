export {
  LIST_MAX,
  LocalOriginals,
  TooManyObjects,
  type ListedObject,
  ORIGINAL_FAMILIES,
  type Originals,
  type PresigningOriginals,
  type PresignOptions,
  type StoredOriginal,
} from './originals';
export { S3Originals, SINGLE_PUT_MAX, StorageUnavailable, type S3Settings } from './s3';
export { cdnSettingsFrom, loadS3Settings, s3SettingsFrom, storageEnv } from './config';
export { CloudFrontOriginals, cloudFrontPath, withCdn, type CloudFrontSettings } from './cdn';
