import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import type { Readable } from 'node:stream';
import type { ByteRange, ListedObject, PresignOptions, PresigningOriginals, StoredOriginal } from './originals';

/** A CloudFront distribution in front of the bucket (CDN_SIGNING=cloudfront). */
export interface CloudFrontSettings {
  /** The distribution's base URL, `https://dxxxx.cloudfront.net` or a custom domain; no query, no trailing slash. */
  baseUrl: string;
  /** The public key's id in the distribution's trusted key group (`K2JCJMDEHXQW5F`). */
  keyPairId: string;
  /** The matching RSA private key, PEM (read from CLOUDFRONT_PRIVATE_KEY_FILE, never from the repo). */
  privateKey: string;
}

/**
 * The object key as a URL path, each segment percent-encoded the way @aws-sdk/cloudfront-signer
 * normalises it (encodeURIComponent), so the signed resource is the URL the viewer sends.
 */
export function cloudFrontPath(relative: string): string {
  return relative
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}

export function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}

/** A query value as the signer keeps it: encodeURIComponent plus `'` (the signer encodes it, S3 decodes it). */
const queryValue = (v: string) => encodeURIComponent(v).replace(/'/g, '%27');

/**
 * The bucket behind a CloudFront distribution: everything goes to the wrapped store (the media
 * service still heads objects there, reads originals for variants), except `presign`, which answers
 * a CloudFront signed URL (canned policy) for the same object key instead of an S3 presigned one.
 * The `response-*` overrides ride along as ordinary query parameters, covered by the signature;
 * CloudFront forwards them to S3 through Origin Access Control (media-service/README.md, "CloudFront").
 */
export class CloudFrontOriginals implements PresigningOriginals {
  readonly kind = 's3' as const;
  readonly presignSeconds: number;
  private readonly base: string;

  constructor(
    private readonly inner: PresigningOriginals & { close?(): void },
    private readonly settings: CloudFrontSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.presignSeconds = inner.presignSeconds;
    this.base = withoutTrailingSlashes(settings.baseUrl);
  }

  head(relative: string): Promise<StoredOriginal | null> {
    return this.inner.head(relative);
  }

  list(prefix: string, max?: number): Promise<ListedObject[]> {
    return this.inner.list(prefix, max);
  }

  read(relative: string, range: ByteRange): Readable {
    return this.inner.read(relative, range);
  }

  readAll(relative: string): Promise<Buffer> {
    return this.inner.readAll(relative);
  }

  put(relative: string, source: string, contentType?: string): Promise<'placed' | 'same'> {
    return this.inner.put(relative, source, contentType);
  }

  reachable(): Promise<boolean> {
    return this.inner.reachable();
  }

  /**
   * The unsigned URL: the key, then the overrides S3 applies (alphabetical; CloudFront's cache policy
   * keys on them, the origin request policy forwards them). A signature does not cover the method, so
   * HEAD gets the same URL as GET (and the same cache entry).
   */
  unsignedUrl(relative: string, options: PresignOptions): string {
    const query = [
      ['response-cache-control', options.cacheControl],
      ['response-content-disposition', options.disposition],
      ['response-content-type', options.type],
    ]
      .filter((pair): pair is [string, string] => Boolean(pair[1]))
      .map(([k, v]) => `${k}=${queryValue(v)}`)
      .join('&');
    return `${this.base}/${cloudFrontPath(relative)}${query ? `?${query}` : ''}`;
  }

  presign(relative: string, options: PresignOptions): Promise<string> {
    const expires = Math.floor(this.now() / 1000) + this.presignSeconds;
    return Promise.resolve(
      getSignedUrl({
        url: this.unsignedUrl(relative, options),
        keyPairId: this.settings.keyPairId,
        privateKey: this.settings.privateKey,
        // Whole seconds: the signer rounds, and a canned policy's Expires is epoch seconds.
        dateLessThan: new Date(expires * 1000).toISOString(),
      }),
    );
  }

  close(): void {
    this.inner.close?.();
  }
}

/** The store the media service redirects to: the bucket itself, or CloudFront in front of it. */
export function withCdn<T extends PresigningOriginals & { close?(): void }>(
  store: T,
  cdn: CloudFrontSettings | null,
): T | CloudFrontOriginals {
  return cdn ? new CloudFrontOriginals(store, cdn) : store;
}
