import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentDisposition, isValidStorageKey, type Storage } from './storage';

export interface S3StorageOptions {
  /** The store's endpoint as the API reaches it, e.g. http://127.0.0.1:9000. */
  endpoint: string;
  /**
   * The endpoint browsers reach, when it differs (a public host name in front of an internal
   * one); presigned URLs are signed for it.
   */
  publicEndpoint?: string;
  bucket: string;
  region: string;
  /** Unset: the SDK's default chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bucket in the path (MinIO, most self-hosted stores) instead of the host name. */
  forcePathStyle: boolean;
  ttlSeconds: number;
}

/** At most PART_BYTES × QUEUE_SIZE of an upload are in memory at any time. */
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  (error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404));

export class StorageUnavailableError extends Error {}

/**
 * Checks at start that the bucket exists and these credentials reach it (HeadBucket), so a wrong
 * setting fails the start with its name instead of the first upload. A missing bucket is created
 * only when `create` is set (a development or test store); a real one is made by its owner.
 */
export async function ensureBucket(
  options: Pick<S3StorageOptions, 'endpoint' | 'bucket' | 'region' | 'credentials' | 'forcePathStyle'>,
  create: boolean,
): Promise<'exists' | 'created'> {
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // One quick try: a start should fail fast, not retry for a minute.
    maxAttempts: 1,
  });
  const Bucket = options.bucket;
  const where = `bucket "${Bucket}" at ${options.endpoint}`;
  try {
    await client.send(new HeadBucketCommand({ Bucket }));
    return 'exists';
  } catch (error) {
    const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
    if (status === 404 || (error as { name?: unknown }).name === 'NotFound') {
      if (!create) {
        throw new StorageUnavailableError(
          `Object storage: ${where} does not exist. Create it, or set STORAGE_CREATE_BUCKET=true ` +
            'to let the API create it at start.',
        );
      }
      try {
        await client.send(new CreateBucketCommand({ Bucket }));
        return 'created';
      } catch (createError) {
        throw new StorageUnavailableError(
          `Object storage: ${where} does not exist and could not be created: ${(createError as Error).message}`,
        );
      }
    }
    if (status === 403 || status === 401) {
      throw new StorageUnavailableError(
        `Object storage: access to ${where} was refused (HTTP ${status}); check STORAGE_ACCESS_KEY_ID and STORAGE_SECRET_ACCESS_KEY.`,
      );
    }
    throw new StorageUnavailableError(
      `Object storage: ${where} could not be checked: ${(error as Error).message || (error as Error).name}`,
    );
  } finally {
    client.destroy();
  }
}

/**
 * Objects in an S3-compatible bucket; downloads are presigned GETs that the browser takes
 * straight from the store, so a 2 GB installer never passes through the API.
 */
export function createS3Storage(options: S3StorageOptions): Storage {
  const clientConfig = {
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
  const client = new S3Client({ ...clientConfig, endpoint: options.endpoint });
  const presigner = options.publicEndpoint
    ? new S3Client({ ...clientConfig, endpoint: options.publicEndpoint })
    : client;
  const Bucket = options.bucket;

  const checked = (key: string) => {
    if (!isValidStorageKey(key)) throw new Error(`Invalid storage key "${key}"`);
    return key;
  };

  return {
    kind: 's3',
    async put(key, data, contentType = 'application/octet-stream') {
      await client.send(
        new PutObjectCommand({ Bucket, Key: checked(key), Body: data, ContentType: contentType }),
      );
    },
    async putStream(key, body, contentType) {
      let bytes = 0;
      // The SDK reads the body on its own schedule; a counter in between tells how much went in.
      const counted = body.pipe(
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            bytes += chunk.length;
            done(null, chunk);
          },
        }),
      );
      // pipe() does not forward errors: without this the upload would wait for an end that
      // never comes, and a failed body must fail (and abort) the upload.
      body.once('error', (error) => counted.destroy(error));
      const upload = new Upload({
        client,
        params: { Bucket, Key: checked(key), Body: counted, ContentType: contentType },
        partSize: PART_BYTES,
        queueSize: QUEUE_SIZE,
        // The default: a failed multipart upload is aborted, so no parts are left behind.
        leavePartsOnError: false,
      });
      await upload.done();
      return bytes;
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checked(key) }));
    },
    async signedUrl(key, { contentType, downloadName, ttlSeconds = options.ttlSeconds }) {
      return getSignedUrl(
        presigner,
        new GetObjectCommand({
          Bucket,
          Key: checked(key),
          // The store answers with our type and disposition, whatever the object was stored as.
          ResponseContentType: contentType,
          ResponseContentDisposition: contentDisposition(contentType, downloadName),
        }),
        { expiresIn: ttlSeconds },
      );
    },
    verify() {
      return null;
    },
    async open(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: checked(key) }));
        if (!res.Body) return null;
        return { stream: res.Body as Readable, size: res.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
  };
}
