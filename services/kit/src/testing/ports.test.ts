import { freePort } from './ports';

it('never hands out the same port twice in a process', async () => {
  const ports: number[] = [];
  for (let i = 0; i < 200; i++) ports.push(await freePort());
  expect(new Set(ports).size).toBe(ports.length);
  expect(ports.every((p) => p > 0 && p < 65536)).toBe(true);
});
