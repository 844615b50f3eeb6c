// The encode worker: ffmpeg renditions, poster, sprite and trailer per queued video or VOD.
export {
  encodeConfig,
  encodeEnv,
  encoderServiceEnv,
  loadEncoderConfig,
  scratchDirFrom,
  toolsEnv,
  type EncodeConfig,
  type EncoderConfig,
} from './config';
export { deriveItem, type EncodeSettings } from './derive';
export { isFastStart, topLevelBoxes } from './mp4-boxes';
export { progressReporter, type EncodeTally } from './progress-bar';
export { ffmpegWorks, type FfmpegTools } from './tools';
export { EncodeWorker, type WorkerEvent } from './worker';
export { tallyLine, workQueue, type WorkContext } from './work-queue';
