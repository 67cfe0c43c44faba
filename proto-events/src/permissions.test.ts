import { CRASH_LEDGER } from './contract';
import { catalogue } from './catalogue';
import { BUS_SERVICES, inboxPrefixOf, natsPermissionsOf, streamDutyOf } from './permissions';

describe('NATS permissions derived from the contracts', () => {
  const worker = natsPermissionsOf('worker');

  it('the worker takes work and publishes results, nothing else of the contracts', () => {
    const contractSubjects = new Set(catalogue.map((c) => c.subject));
    expect(worker.publish.filter((s) => contractSubjects.has(s)).sort()).toEqual([
      'dlq.work.v1.media.process',
      'events.v1.job.item.done',
      'events.v1.media.processed',
    ]);
    // Its one writable store is its own crash ledger (markers of the items in flight, quarantine after crashes).
    const ledger = (s: string) => s.includes(CRASH_LEDGER.bucket);
    expect(
      worker.publish.some(
        (s) =>
          !ledger(s) &&
          (s.startsWith('trove.v1.') || s.startsWith('$KV.') || /STREAM\.(CREATE|UPDATE|DELETE|PURGE)/.test(s)),
      ),
    ).toBe(false);
    expect(worker.publish.filter(ledger).sort()).toEqual([
      `$JS.API.DIRECT.GET.KV_${CRASH_LEDGER.bucket}.>`,
      `$JS.API.STREAM.CREATE.KV_${CRASH_LEDGER.bucket}`,
      `$JS.API.STREAM.INFO.KV_${CRASH_LEDGER.bucket}`,
      `$JS.API.STREAM.MSG.GET.KV_${CRASH_LEDGER.bucket}`,
      `$KV.${CRASH_LEDGER.bucket}.>`,
    ]);
    expect(worker.publish.filter((s) => s.startsWith('$JS.API.CONSUMER.CREATE.'))).toEqual([
      '$JS.API.CONSUMER.CREATE.TROVE_WORK.*.work.v1.media.process',
    ]);
    expect(worker.subscribe.filter((s) => !s.startsWith('$SRV.') && !s.startsWith('$JS.EVENT.'))).toEqual([
      `${inboxPrefixOf('worker')}.>`,
    ]);
  });

  it("each RPC is subscribed by its service only and published by its callers only; no one subscribes to another's inbox", () => {
    for (const c of catalogue.filter((x) => x.kind === 'rpc')) {
      for (const s of BUS_SERVICES) {
        const p = natsPermissionsOf(s);
        expect({ s, subject: c.subject, sub: p.subscribe.includes(c.subject) }).toEqual({
          s,
          subject: c.subject,
          sub: 'service' in c && c.service === s,
        });
        expect({ s, subject: c.subject, pub: p.publish.includes(c.subject) }).toEqual({
          s,
          subject: c.subject,
          pub: 'callers' in c && c.callers.includes(s),
        });
      }
    }
    for (const s of BUS_SERVICES) {
      expect(natsPermissionsOf(s).subscribe.filter((x) => x.startsWith('_INBOX'))).toEqual([`_INBOX.${s}.>`]);
      expect(
        natsPermissionsOf(s).publish.some(
          (x) => x.startsWith('_INBOX') || x === '>' || (x.endsWith('.>') && !x.startsWith('$')),
        ),
      ).toBe(false);
    }
  });

  it('only auth writes the revocation bucket; the worker and the gateway wait for or skip the streams', () => {
    expect(BUS_SERVICES.filter((s) => natsPermissionsOf(s).publish.includes('$KV.TROVE_REVOCATIONS.>'))).toEqual([
      'auth',
    ]);
    expect(streamDutyOf('worker')).toBe('wait');
    expect(streamDutyOf('gateway')).toBe('none');
    expect(streamDutyOf('media')).toBe('manage');
  });
});
