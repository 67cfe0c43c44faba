import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface S3ServerHandle {
  /** `http://127.0.0.1:<port>`; use path-style addressing (`forcePathStyle: true`). */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Closes the server (dropping open connections) and removes its data directory. */
  stop(): Promise<void>;
}

/** The slice of s3rver 3.x we use (the package ships no typings). */
interface S3rverOptions {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  resetOnClose: boolean;
}
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverClass = new (options: S3rverOptions) => S3rverInstance;

/**
 * A real S3-protocol server (s3rver, in-process) on loopback with a free port and a fresh temp
 * directory. It accepts the fixed S3RVER/S3RVER key pair and does not verify V4 signatures.
 * Clients must not send flexible checksums (the blob-store adapter's default, `checksums:
 * 'WHEN_REQUIRED'`), and s3rver lacks AbortMultipartUpload.
 */
export async function startS3Server(): Promise<S3ServerHandle> {
  // createRequire: s3rver is untyped CommonJS; this keeps the type to the interface above.
  const S3rver = createRequire(__filename)('s3rver') as S3rverClass;
  const directory = await mkdtemp(join(tmpdir(), 'trove-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, resetOnClose: false });
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (err) {
    await rm(directory, { recursive: true, force: true });
    throw err;
  }
  let stopped = false;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    region: 'us-east-1',
    async stop() {
      if (stopped) return;
      stopped = true;
      // Clients keep sockets alive; without this close() waits for them to time out.
      server.httpServer?.closeAllConnections();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
