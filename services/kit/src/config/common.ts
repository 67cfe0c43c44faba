import { bool, int, logLevel, oneOf, optionalStr, optionalUrl, str, url } from './index';
import type { Var } from './index';

/** Variables every service reads. Documented in the README's table. */
export const commonSpec = {
  natsUrl: url('TROVE_NATS_URL', { default: 'nats://127.0.0.1:4222', protocols: ['nats', 'tls', 'ws', 'wss'] }),
  dataDir: str('TROVE_DATA_DIR', { default: './data' }),
  logLevel: logLevel('TROVE_LOG_LEVEL', { default: 'info' }),
  rpcTimeoutMs: int('TROVE_RPC_TIMEOUT_MS', { default: 5000, min: 100, max: 120000 }),
  otlpEndpoint: optionalUrl('TROVE_OTLP_ENDPOINT', ['http', 'https']),
  /** NATS credentials: user/password, a token, or a creds file (NKey/JWT); none when unset. */
  nats: {
    user: optionalStr('TROVE_NATS_USER'),
    password: optionalStr('TROVE_NATS_PASSWORD'),
    token: optionalStr('TROVE_NATS_TOKEN'),
    credsFile: optionalStr('TROVE_NATS_CREDS_FILE'),
    /** TLS: a CA to trust (self-signed servers), and a client certificate when the server asks for one. */
    tlsCaFile: optionalStr('TROVE_NATS_TLS_CA_FILE'),
    tlsCertFile: optionalStr('TROVE_NATS_TLS_CERT_FILE'),
    tlsKeyFile: optionalStr('TROVE_NATS_TLS_KEY_FILE'),
  },
  /** Port of the Prometheus `/metrics` answer; unset serves none. */
  metricsPort: int('TROVE_METRICS_PORT', { required: false, min: 0, max: 65535 }) as Var<number | undefined>,
};

/** Document store: MongoDB when a URL is given, else the embedded store under the data dir (SQLite, or NeDB when asked). */
export const docStoreSpec = {
  mongodbUrl: optionalUrl('TROVE_MONGODB_URL', ['mongodb', 'mongodb+srv']),
  embeddedStore: oneOf('TROVE_EMBEDDED_STORE', ['sqlite', 'nedb'] as const, { default: 'sqlite' }),
};

/** Blob store: S3/MinIO when a bucket is given, else the filesystem under the data dir. */
export const blobStoreSpec = {
  s3Bucket: optionalStr('TROVE_S3_BUCKET'),
  s3Endpoint: optionalUrl('TROVE_S3_ENDPOINT', ['http', 'https']),
  s3Region: str('TROVE_S3_REGION', { default: 'us-east-1' }),
  s3AccessKeyId: optionalStr('TROVE_S3_ACCESS_KEY_ID'),
  s3SecretAccessKey: optionalStr('TROVE_S3_SECRET_ACCESS_KEY'),
  s3ForcePathStyle: bool('TROVE_S3_FORCE_PATH_STYLE', { default: true }),
  s3QuotaBytes: int('TROVE_S3_QUOTA_BYTES', { default: 0, min: 0 }),
};
