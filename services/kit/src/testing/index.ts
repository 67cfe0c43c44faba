export { freePort } from './ports';
export { tempDir } from './temp';
export type { TempDir } from './temp';
export { waitFor } from './wait';
export { startNatsServer, natsServerBin } from './nats-server';
export type { NatsServerHandle } from './nats-server';
export { startProcess } from './process';
export type { ServiceProcess } from './process';
export { startS3Server } from './s3-server';
