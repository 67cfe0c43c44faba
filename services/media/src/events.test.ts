import { Bus, createLogger } from '@trove/kit';
import { startNatsServer } from '@trove/kit/testing';
import type { NatsServerHandle } from '@trove/kit/testing';
import { mediaProcessedEvent, userDeletedEvent } from '@trove/proto-events';
import { MEDIA_CONSUMERS, consumeMediaEvents } from './events';
import type { MediaService } from './items/service';

const log = createLogger({ service: 'media-events-test', level: 'silent' });
let nats: NatsServerHandle;
let bus: Bus;

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await Bus.connect({ url: nats.url, name: 'media', log });
  await bus.ensureStreams();
});
afterAll(async () => {
  await bus?.close();
  await nats?.stop();
});

it('never gives up on a user deletion: its consumer retries without a delivery limit, the others are bounded', async () => {
  // No event arrives in this test: only the consumers' configuration on the server is checked.
  await consumeMediaEvents(bus, {} as MediaService, log);
  const jsm = await bus.nc.jetstreamManager();
  expect((await jsm.consumers.info(userDeletedEvent.stream, MEDIA_CONSUMERS.userDeleted)).config.max_deliver).toBe(-1);
  expect(
    (await jsm.consumers.info(mediaProcessedEvent.stream, MEDIA_CONSUMERS.processed)).config.max_deliver,
  ).toBeGreaterThan(0);
});
