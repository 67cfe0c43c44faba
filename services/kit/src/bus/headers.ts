import { context, propagation } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { headers as natsHeaders } from 'nats';
import type { MsgHdrs } from 'nats';
import { currentContext } from '../log';

export const REQUEST_ID_HEADER = 'Trove-Request-Id';

/** Headers for an outgoing message: W3C trace context plus the current request id. */
export function outgoingHeaders(): MsgHdrs {
  const h = natsHeaders();
  propagation.inject(context.active(), h, {
    set: (carrier, key, value) => carrier.set(key, value),
  });
  const { requestId } = currentContext();
  if (requestId) h.set(REQUEST_ID_HEADER, requestId);
  return h;
}

/** The trace context an incoming message continues. */
export function incomingContext(h: MsgHdrs | undefined): Context {
  if (!h) return context.active();
  return propagation.extract(context.active(), h, {
    get: (carrier, key) => carrier.get(key) || undefined,
    keys: (carrier) => carrier.keys(),
  });
}

export function requestIdOf(h: MsgHdrs | undefined): string | undefined {
  return h?.get(REQUEST_ID_HEADER) || undefined;
}
