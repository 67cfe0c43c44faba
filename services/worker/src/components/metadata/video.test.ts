import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ffmpeg, H264_ARGS, testClipArgs, videoTestDir } from '@trove/kit/testing/media';
import { MediaError } from '../errors';
import { makeVideoPreviews, transcodeIfNeeded } from '../previews/video';
import { appleMovArgs, cutOff, metadataArgs, WEBM_ARGS } from '../../test-support.fake';
import { closeExifTool, emptyMetadata, extractMetadata } from './index';

const videos = videoTestDir();

afterAll(() => closeExifTool());

describe('extractMetadata for videos', () => {
  it('H.264/AAC MP4: codecs, container, size, frame rate, duration; no date without a creation tag (the upload time stands in)', async () => {
    const meta = await extractMetadata(videos.mp4, 'video/mp4');
    expect(meta).toMatchObject({
      container: 'mp4',
      videoCodec: 'h264',
      audioCodec: 'aac',
      pixelFormat: 'yuv420p',
      width: 320,
      height: 240,
      fps: '30',
      captureFps: null,
      contentIdentifier: null,
      creationTime: null,
      creationTimeSource: null,
      orientation: null,
      focalLength: null,
    });
    expect(meta.durationSeconds).toBeCloseTo(2, 1);
  });

  it('MOV with creation_time and a 90° display matrix: UTC creation time, width and height swapped', async () => {
    const mov = videos.dir.file('rotated.mov');
    // Rotation metadata is only written when the stream is copied.
    await ffmpeg([
      ...['-i', videos.mp4, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', '-f', 'mov'],
      ...metadataArgs({ creation_time: '2023-05-06T07:08:09Z' }),
      mov,
    ]);
    expect(await extractMetadata(mov, 'video/quicktime')).toMatchObject({
      container: 'mov',
      width: 240,
      height: 320,
      // The movie header's date (whole seconds, UTC).
      creationTime: '2023-05-06T07:08:09Z',
      creationTimeSource: 'video',
    });
  });

  it('the video of a Live Photo: Apple keys for local time, place, camera and pairing id', async () => {
    const mov = videos.dir.file('IMG_0001.MOV');
    await ffmpeg([
      ...['-i', videos.mp4, '-c', 'copy'],
      ...metadataArgs({ creation_time: '2023-05-06T07:08:09Z' }),
      ...appleMovArgs({
        creationdate: '2023-05-06T09:08:09+0200',
        'content.identifier': '599FEB0A-F64C-4A67-ABBE-2AE1A96A20EA',
        'location.ISO6709': '+48.8582+002.2945+035.000/',
        make: 'Apple',
        model: 'iPhone 12 mini',
        software: '14.6',
      }),
      mov,
    ]);
    expect(await extractMetadata(mov, 'video/quicktime')).toMatchObject({
      creationTime: '2023-05-06T09:08:09+02:00',
      creationTimeSource: 'video',
      contentIdentifier: '599FEB0A-F64C-4A67-ABBE-2AE1A96A20EA',
      latitude: 48.8582,
      longitude: 2.2945,
      cameraMake: 'Apple',
      cameraModel: 'iPhone 12 mini',
      softwareHint: '14.6',
    });
  });

  it('WebM: VP9 and Opus in a webm container', async () => {
    const webm = videos.dir.file('clip.webm');
    await ffmpeg([...testClipArgs({ size: '160x120' }), ...WEBM_ARGS, webm]);
    const meta = await extractMetadata(webm, 'video/webm');
    expect(meta).toMatchObject({
      container: 'webm',
      videoCodec: 'vp9',
      audioCodec: 'opus',
      width: 160,
      height: 120,
      fps: '30',
    });
    expect(meta.durationSeconds).toBeCloseTo(2, 0);
  });

  it('a 120 fps clip with Android capture-fps metadata', async () => {
    const slow = videos.dir.file('slow.mp4');
    await ffmpeg([
      ...testClipArgs({ seconds: 1, size: '160x120', rate: 120, audio: false }),
      ...H264_ARGS,
      '-metadata',
      'com.android.capture.fps=120.000000',
      '-movflags',
      'use_metadata_tags',
      slow,
    ]);
    expect(await extractMetadata(slow, 'video/mp4')).toMatchObject({ fps: '120', captureFps: '120', audioCodec: null });
  });

  it('rejects a truncated MP4 and a file that is no video', async () => {
    const whole = await readFile(videos.mp4);
    const cut = await videos.dir.write('cut.mp4', cutOff(whole, 0.6));
    await expect(extractMetadata(cut, 'video/mp4')).rejects.toMatchObject({
      name: 'MediaError',
      kind: 'corrupt',
      message: expect.stringMatching(/cut\.mp4.*truncated/),
    });
    const noise = await videos.dir.write('noise.mkv', Buffer.alloc(5000, 0x42));
    await expect(extractMetadata(noise, 'video/x-matroska')).rejects.toBeInstanceOf(MediaError);
  });
});

describe('inputs that point elsewhere', () => {
  let server: Server;
  let base: string;
  const requests: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('an HLS playlist or a concat list taken for a video is refused, and neither a URL nor a local file it names is opened', async () => {
    const hls = await videos.dir.write(
      'playlist.mkv',
      `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${base}/segment.ts\n#EXTINF:2,\n${videos.mp4}\n#EXT-X-ENDLIST\n`,
    );
    const local = await videos.dir.write(
      'local.mkv',
      `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${videos.mp4}\n#EXT-X-ENDLIST\n`,
    );
    const concat = await videos.dir.write(
      'list.avi',
      `ffconcat version 1.0\nfile ${base}/clip.mp4\nfile ${videos.mp4}\n`,
    );
    for (const [file, mimeType] of [
      [hls, 'video/x-matroska'],
      [local, 'video/x-matroska'],
      [concat, 'video/x-msvideo'],
    ]) {
      await expect(extractMetadata(file, mimeType)).rejects.toMatchObject({
        name: 'MediaError',
        kind: 'corrupt',
        message: expect.stringContaining('ffprobe cannot read it'),
      });
      // ffmpeg reads its input the same way (poster frames, transcodes).
      const meta = { ...emptyMetadata(), durationSeconds: 2, videoCodec: 'h264', container: 'matroska' };
      // ffmpeg refusing the input is as final as ffprobe refusing it: failed at once, not retried.
      await expect(makeVideoPreviews(file, meta)).rejects.toMatchObject({ name: 'MediaError', kind: 'corrupt' });
      await expect(transcodeIfNeeded(file, meta, videos.dir.file('out.mp4'))).rejects.toMatchObject({
        name: 'MediaError',
        kind: 'corrupt',
      });
    }
    expect(requests).toEqual([]);
  });
});
