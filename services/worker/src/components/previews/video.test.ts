import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { readBoxes } from '../formats/isobmff';
import { closeExifTool, extractMetadata } from '../metadata';
import type { MediaMetadata } from '../metadata/types';
import { emptyMetadata } from '../metadata/types';
import { ffmpeg, ffprobeJson, H264_ARGS, testClipArgs, videoTestDir } from '@trove/kit/testing/media';
import { metadataArgs, VP9_ARGS, WEBM_ARGS } from '../../test-support.fake';
import { isWebPlayable, makeVideoPreviews, posterTime, transcodeIfNeeded } from './video';

// ExifTool's processes (the metadata reads start them) end with the suite, not with jest's worker: each test file has a pool of its own.
afterAll(() => closeExifTool());

const videos = videoTestDir();

/** The MP4's top-level boxes in order: moov before mdat means +faststart did its job. */
async function topLevelBoxes(file: string): Promise<string[]> {
  return readBoxes(await readFile(file)).map((b) => b.type);
}

describe('posterTime', () => {
  it('is 1 s in, 10% in for clips under 10 s, 0 when the duration is unknown', () => {
    expect(posterTime(60)).toBe(1);
    expect(posterTime(2)).toBeCloseTo(0.2);
    expect(posterTime(null)).toBe(0);
    expect(posterTime(0)).toBe(0);
  });
});

describe('makeVideoPreviews', () => {
  it('makes preview, thumbnail and placeholder from a poster frame', async () => {
    const p = await makeVideoPreviews(videos.mp4, await extractMetadata(videos.mp4, 'video/mp4'));
    expect([p.width, p.height, p.thumbnailWidth, p.thumbnailHeight]).toEqual([320, 240, 320, 240]);
    expect(await sharp(p.preview).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });
    expect(Buffer.from(p.placeholder, 'base64').length).toBeGreaterThanOrEqual(5);
  });

  it('applies the display rotation: a 320x240 stream rotated 90° gives a portrait poster', async () => {
    const mov = videos.dir.file('rotated.mov');
    await ffmpeg(['-i', videos.mp4, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', '-f', 'mov', mov]);
    const p = await makeVideoPreviews(mov, await extractMetadata(mov, 'video/quicktime'));
    expect([p.width, p.height]).toEqual([240, 320]);
  });

  it('falls back to the first frame when the container overstates the duration', async () => {
    const meta = { ...(await extractMetadata(videos.mp4, 'video/mp4')), durationSeconds: 1000 };
    expect(posterTime(meta.durationSeconds)).toBe(1);
    const short = videos.dir.file('short.mp4');
    await ffmpeg([...testClipArgs({ seconds: 0.5, size: '64x48', audio: false }), ...H264_ARGS, short]);
    const p = await makeVideoPreviews(short, { ...meta, durationSeconds: 1000 });
    expect([p.width, p.height]).toEqual([64, 48]);
  });
});

describe('isWebPlayable', () => {
  const h264Mp4: MediaMetadata = {
    ...emptyMetadata(),
    container: 'mp4',
    videoCodec: 'h264',
    audioCodec: 'aac',
    pixelFormat: 'yuv420p',
  };
  const cases: Array<{ name: string; meta: MediaMetadata; playable: boolean }> = [
    { name: 'H.264/AAC MP4', meta: h264Mp4, playable: true },
    { name: 'H.264 MOV without audio', meta: { ...h264Mp4, container: 'mov', audioCodec: null }, playable: true },
    { name: 'HEVC MOV (iPhone default)', meta: { ...h264Mp4, container: 'mov', videoCodec: 'hevc' }, playable: false },
    { name: '10-bit H.264', meta: { ...h264Mp4, pixelFormat: 'yuv420p10le' }, playable: false },
    { name: 'H.264 with Opus audio', meta: { ...h264Mp4, audioCodec: 'opus' }, playable: false },
    { name: 'H.264 in Matroska', meta: { ...h264Mp4, container: 'matroska' }, playable: false },
    {
      name: 'VP9 WebM',
      meta: { ...h264Mp4, container: 'webm', videoCodec: 'vp9', audioCodec: 'opus' },
      playable: false,
    },
  ];
  it.each(cases)('$name → $playable', ({ meta, playable }) => {
    expect(isWebPlayable(meta)).toBe(playable);
  });
});

describe('transcodeIfNeeded', () => {
  it('returns null for an H.264/AAC MP4 and writes nothing', async () => {
    const out = videos.dir.file('unused.mp4');
    expect(await transcodeIfNeeded(videos.mp4, await extractMetadata(videos.mp4, 'video/mp4'), out)).toBeNull();
    await expect(readFile(out)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  /** ISO 6709, as phones write a video's position. */
  const AMSTERDAM = '+52.3702+004.8952/';

  it('never carries the metadata of the original: a playable MP4 with a GPS position is copied without it, a transcode too', async () => {
    const located = videos.dir.file('located.mp4');
    await ffmpeg([
      '-i',
      videos.mp4,
      '-c',
      'copy',
      ...metadataArgs({ location: AMSTERDAM, title: 'Amsterdam' }),
      located,
    ]);
    const meta = await extractMetadata(located, 'video/mp4');
    expect(meta.latitude).toBeCloseTo(52.3702, 3);
    expect(meta.longitude).toBeCloseTo(4.8952, 3);
    const out = videos.dir.file('located-copy.mp4');
    expect(await transcodeIfNeeded(located, meta, out)).toBe(out);
    expect(await extractMetadata(out, 'video/mp4')).toMatchObject({ latitude: null, longitude: null });
    const tags = JSON.stringify((await ffprobeJson(out)).format.tags ?? {});
    expect(tags).not.toMatch(/location|Amsterdam/i);
    // Copied, not re-encoded, and still playable as is.
    expect(isWebPlayable(await extractMetadata(out, 'video/mp4'))).toBe(true);

    const mov = videos.dir.file('located.mov');
    await ffmpeg([
      ...testClipArgs({ seconds: 0.5, size: '160x120' }),
      '-c:v',
      'mpeg4',
      '-c:a',
      'pcm_s16le',
      ...metadataArgs({ location: AMSTERDAM }),
      mov,
    ]);
    const movMeta = await extractMetadata(mov, 'video/quicktime');
    expect(movMeta.latitude).toBeCloseTo(52.3702, 3);
    const transcoded = videos.dir.file('located-transcode.mp4');
    await transcodeIfNeeded(mov, movMeta, transcoded);
    expect(await extractMetadata(transcoded, 'video/mp4')).toMatchObject({ latitude: null, longitude: null });
    expect((await readFile(transcoded)).includes('+52.3702')).toBe(false);
  });

  it('encodes VP9/Opus WebM to a fast-start H.264/AAC MP4', async () => {
    const webm = videos.dir.file('clip.webm');
    await ffmpeg([...testClipArgs({ size: '160x120' }), ...WEBM_ARGS, webm]);
    const out = videos.dir.file('from-webm.mp4');
    expect(await transcodeIfNeeded(webm, await extractMetadata(webm, 'video/webm'), out)).toBe(out);
    const probe = await ffprobeJson(out);
    const video = probe.streams.find((s) => s.codec_type === 'video');
    const audio = probe.streams.find((s) => s.codec_type === 'audio');
    expect(video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 160, height: 120 });
    expect(audio).toMatchObject({ codec_name: 'aac' });
    const boxes = await topLevelBoxes(out);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect(isWebPlayable(await extractMetadata(out, 'video/mp4'))).toBe(true);
  });

  it('only remuxes H.264 that is already web-ready but in Matroska', async () => {
    const mkv = videos.dir.file('clip.mkv');
    await ffmpeg([...testClipArgs({ size: '160x120' }), ...H264_ARGS, '-crf', '30', '-c:a', 'libopus', mkv]);
    const out = videos.dir.file('from-mkv.mp4');
    await transcodeIfNeeded(mkv, await extractMetadata(mkv, 'video/x-matroska'), out);
    const [source, result] = await Promise.all([ffprobeJson(mkv), ffprobeJson(out)]);
    const sourceVideo = source.streams.find((s) => s.codec_type === 'video');
    const resultVideo = result.streams.find((s) => s.codec_type === 'video');
    expect(resultVideo).toMatchObject({ codec_name: 'h264', profile: sourceVideo?.profile, width: 160, height: 120 });
    // Copied, not re-encoded: libx264's settings string (crf 30, not the transcode's 23) travels in the stream.
    expect((await readFile(out)).includes('crf=30.0')).toBe(true);
    expect(result.streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
    expect(isWebPlayable(await extractMetadata(out, 'video/mp4'))).toBe(true);
  });

  it('scales to fit 1080p in either orientation, with even sides', async () => {
    const tall = videos.dir.file('tall.avi');
    await ffmpeg([
      ...testClipArgs({ seconds: 0.2, size: '1440x2560', rate: 5, audio: false }),
      '-c:v',
      'mpeg4',
      '-q:v',
      '31',
      tall,
    ]);
    const out = videos.dir.file('tall.mp4');
    await transcodeIfNeeded(tall, await extractMetadata(tall, 'video/x-msvideo'), out);
    expect((await ffprobeJson(out)).streams[0]).toMatchObject({ codec_name: 'h264', width: 1080, height: 1920 });

    const odd = videos.dir.file('odd.webm');
    await ffmpeg([...testClipArgs({ seconds: 0.2, size: '321x241', rate: 5, audio: false }), ...VP9_ARGS, odd]);
    const oddOut = videos.dir.file('odd.mp4');
    await transcodeIfNeeded(odd, await extractMetadata(odd, 'video/webm'), oddOut);
    expect((await ffprobeJson(oddOut)).streams[0]).toMatchObject({ width: 320, height: 240 });
  });
});
