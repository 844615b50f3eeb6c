import type { Logger } from 'pino';
import { AppError } from '../errors';
import type { VariantFormat } from './format';
import { PoolFullError, WorkPool } from './pool';
import { renderVariant } from './render';
import type { VariantStore } from './store';
import { variantKey } from './store';

/** What a variant is made from: a file under MEDIA_ROOT (`absolute`), or an original in object storage (`load`). */
export interface VariantSource {
  relative: string;
  stat: { size: number; mtimeMs: number };
  absolute?: string;
  load?: () => Promise<Buffer>;
}

/** The source could not be fetched (object storage down): not the image's fault. */
class SourceUnavailable extends Error {}

export interface Variant {
  key: string;
  data: Buffer;
}

export interface VariantServiceOptions {
  store: VariantStore;
  concurrency: number;
  queueMax: number;
  maxPixels: number;
  logger: Logger;
}

/**
 * Resized copies of images: memory, then disk, then one sharp job per key however many requests
 * ask at once (single-flight), run in a bounded pool. Returns null when the original should be
 * served instead (the cache disk is full).
 */
export class VariantService {
  private readonly pool: WorkPool;
  private readonly inFlight = new Map<string, Promise<Variant | null>>();
  /** sharp jobs started, for tests and metrics. */
  renders = 0;

  constructor(private readonly options: VariantServiceOptions) {
    this.pool = new WorkPool(options.concurrency, options.queueMax);
  }

  get load(): { running: number; waiting: number } {
    return this.pool.load;
  }

  async get(file: VariantSource, width: number, format: VariantFormat): Promise<Variant | null> {
    const key = variantKey({ relative: file.relative, stat: file.stat, width, format });
    const hot = this.options.store.fromMemory(key);
    if (hot) return { key, data: hot };
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.produce(key, file, width, format).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async produce(key: string, file: VariantSource, width: number, format: VariantFormat): Promise<Variant | null> {
    const { store } = this.options;
    const cached = await store.fromDisk(key, format);
    if (cached) return { key, data: cached };
    if (await store.isFull()) return null;
    let data: Buffer;
    try {
      data = await this.pool.run(async () => {
        // Fetched inside the pool: at most `concurrency` originals are held in memory at once.
        let source: string | Buffer;
        if (file.load) {
          try {
            source = await file.load();
          } catch (err) {
            throw new SourceUnavailable((err as Error).message, { cause: err });
          }
        } else {
          source = file.absolute ?? '';
        }
        this.renders += 1;
        return renderVariant(source, { width, format, maxPixels: this.options.maxPixels });
      });
    } catch (err) {
      if (err instanceof SourceUnavailable) {
        this.options.logger.warn({ err, path: file.relative }, 'variant source unavailable');
        throw new AppError('storage_unavailable', 'The original could not be read from storage; retry shortly', { 'Retry-After': '2' });
      }
      if (err instanceof PoolFullError) {
        throw new AppError('busy', 'Too many thumbnails being made; retry shortly', { 'Retry-After': '2' });
      }
      this.options.logger.warn({ err, path: file.relative }, 'variant refused');
      throw new AppError('unprocessable_image', 'This image cannot be resized (corrupt, unsupported or too large)');
    }
    let saved: boolean;
    try {
      saved = await store.save(key, format, data);
    } catch (err) {
      this.options.logger.warn({ err, path: file.relative }, 'variant not cached');
      return { key, data };
    }
    if (!saved) {
      this.options.logger.warn({ path: file.relative }, 'variant cache disk full; serving originals');
      return null;
    }
    return { key, data };
  }
}
