import { BUS_SERVICES, natsPermissionsOf } from '@trove/proto-events';
import type { NatsPermissions } from '@trove/proto-events';

/** One user of nats-server's `authorization` block; no permissions: allowed everything (a test's observer). */
export interface NatsUser {
  user: string;
  password: string;
  permissions?: NatsPermissions;
}

/** The file (under `<data>/secrets`) holding a service's generated NATS password. */
export function natsPasswordSecretName(service: string): string {
  return `nats-${service}-password`;
}

/** Every service's NATS user (named after the service) with its allow-lists, given its password. */
export function natsServiceUsers(passwordOf: (service: string) => string): NatsUser[] {
  return BUS_SERVICES.map((service) => ({
    user: service,
    password: passwordOf(service),
    permissions: natsPermissionsOf(service),
  }));
}

/**
 * nats-server's `authorization { users: [...] }` for these users. Values are JSON (a subset of the
 * server's configuration syntax), so `$` in subjects is never taken for a variable. Replies to the
 * requests a service receives (its RPCs, `$SRV` pings) are allowed by `allow_responses`, not by a
 * publish right on every inbox.
 */
export function natsAuthorizationBlock(users: NatsUser[]): string {
  const entries = users.map((u) => {
    const fields = [`user: ${JSON.stringify(u.user)}`, `password: ${JSON.stringify(u.password)}`];
    if (u.permissions) {
      fields.push(
        `permissions: { publish: { allow: ${JSON.stringify(u.permissions.publish)} }, subscribe: { allow: ${JSON.stringify(u.permissions.subscribe)} }, allow_responses: true }`,
      );
    }
    return `    { ${fields.join(', ')} }`;
  });
  return ['authorization {', '  users: [', ...entries, '  ]', '}'].join('\n');
}
