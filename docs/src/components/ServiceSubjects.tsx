import React from 'react';
import type { ReactNode } from 'react';
import type { NatsSubject } from '@site/plugins/trove-sources';
import { useTroveData } from './troveData';

/** Up to three subjects as they are; more as their common dotted prefix plus `.*` and the count. */
function summarise(list: string[]): ReactNode {
  const parts = list.map((s) => s.split('.'));
  const common: string[] = [];
  for (let i = 0; parts.every((p) => p.length > i + 1 && p[i] === parts[0][i]); i++) common.push(parts[0][i]);
  if (list.length <= 3 || common.length === 0) {
    return list.map((s, i) => (
      <React.Fragment key={s}>
        {i > 0 ? ', ' : null}
        <code>{s}</code>
      </React.Fragment>
    ));
  }
  return (
    <>
      <code>{`${common.join('.')}.*`}</code> ({list.length})
    </>
  );
}

/**
 * What a service does on NATS, from proto-events/CATALOGUE.md at build time: the requests it
 * answers or makes, the events it publishes or consumes, the work it queues or processes.
 */
export default function ServiceSubjects({ service }: { service: string }): ReactNode {
  const { subjects } = useTroveData();
  const pick = (kind: NatsSubject['kind'], side: 'from' | 'to'): string[] =>
    subjects.filter((s) => s.kind === kind && s[side].includes(service)).map((s) => s.subject);
  const rows: [string, string[]][] = [
    ['answers', pick('rpc', 'from')],
    ['calls', pick('rpc', 'to')],
    ['publishes', pick('event', 'from')],
    ['consumes', pick('event', 'to')],
    ['queues', pick('work', 'from')],
    ['processes', pick('work', 'to')],
  ];
  const present = rows.filter(([, list]) => list.length > 0);
  if (present.length === 0) return <em>no subjects yet</em>;
  return (
    <>
      {present.map(([verb, list], i) => (
        <React.Fragment key={verb}>
          {i > 0 ? <br /> : null}
          {verb} {summarise(list)}
        </React.Fragment>
      ))}
    </>
  );
}
