/**
 * ffprobe and ffmpeg as child processes, as promises with MediaErrors. The binaries come from
 * PATH (or FFPROBE_PATH/FFMPEG_PATH). Every run is time-bounded: when its time is up it is
 * SIGKILLed, so a pathological file cannot hold a worker. Every run reads its input through the
 * local-file protocol and the demuxers of the types the worker accepts only, so a playlist or
 * concat list posing as a video can make ffmpeg open neither a URL nor another file.
 */
import { spawn } from 'node:child_process';
import { KindedError, MediaError, errorMessage } from './errors';

/**
 * Demuxers of the sniffed types ffmpeg is given: MP4/MOV/3GP (mov), MKV/WebM (matroska), AVI, MPEG-TS/M2TS
 * (mpegts, which finds the 192-byte M2TS packets itself), and BMP and JPEG XL stills (bmp_pipe, jpegxl_pipe:
 * bare codestream or container).
 */
const INPUT_FORMATS = 'mov,matroska,avi,mpegts,bmp_pipe,jpegxl_pipe,image2';
const INPUT_GUARD = ['-protocol_whitelist', 'file', '-format_whitelist', INPUT_FORMATS];

/** What the worker reads of ffprobe's JSON (`-show_streams -show_format`). */
export interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  disposition?: Record<string, number>;
  tags?: Record<string, unknown>;
  /** The display matrix among them carries `rotation` in degrees. */
  side_data_list?: Array<Record<string, unknown>>;
}

export interface ProbeData {
  streams: ProbeStream[];
  format: { format_name?: string; duration?: string; tags?: Record<string, unknown> };
}

export async function ffprobe(filePath: string, name: string, timeoutSeconds: number): Promise<ProbeData> {
  const args = ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', ...INPUT_GUARD, filePath];
  let stdout: Buffer;
  try {
    stdout = await runTool('ffprobe', args, { timeoutSeconds, maxOutputBytes: 16 * 1024 ** 2 });
  } catch (err) {
    throw new MediaError(failureKind(err), `${name}: ffprobe cannot read it: ${errorMessage(err)}`, { cause: err });
  }
  const data = JSON.parse(stdout.toString('utf8')) as Partial<ProbeData>;
  return { streams: Array.isArray(data.streams) ? data.streams : [], format: data.format ?? {} };
}

export interface FfmpegRun {
  input: string;
  /** Options that apply to reading the input (`-ss` …). */
  inputOptions?: string[];
  outputOptions: string[];
  /** A file, or `pipe:1` for the bytes to be returned. */
  output: string;
  timeoutSeconds: number;
  /** Names the run in errors ("frame of clip.mp4"). */
  what: string;
  /** For `pipe:1`: the most bytes it may write. */
  maxOutputBytes?: number;
  /** The decoder's `-max_pixels`: a frame larger than this is refused before it is allocated (decodeLimits). */
  maxPixels: number;
  /** Threads of the decoder, the filters and the encoder (ProcessingLimits.ffmpegThreads). */
  threads: number;
}

/**
 * What ffmpeg says when a frame is over `-max_pixels` (av_image_check_size2 in every decoder that
 * sets its dimensions): the file declared a size its own header had hidden from the probe.
 */
const OVER_MAX_PIXELS = /exceeds specified max pixel count/;

/** Runs ffmpeg; resolves with what it wrote to stdout (empty unless the output is `pipe:1`). */
export async function runFfmpeg(run: FfmpegRun): Promise<Buffer> {
  const args = [
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    '-y',
    ...INPUT_GUARD,
    // Decoder options: the memory bound, and its threads (each holds frames of its own).
    '-threads',
    String(run.threads),
    '-max_pixels',
    String(Math.max(1, Math.floor(run.maxPixels))),
    ...(run.inputOptions ?? []),
    '-i',
    run.input,
    ...run.outputOptions,
    '-threads',
    String(run.threads),
    '-filter_threads',
    String(run.threads),
    run.output,
  ];
  try {
    return await runTool('ffmpeg', args, {
      timeoutSeconds: run.timeoutSeconds,
      maxOutputBytes: run.maxOutputBytes ?? 0,
    });
  } catch (err) {
    if (err instanceof ToolFailure && err.kind === 'exit' && OVER_MAX_PIXELS.test(err.message))
      throw new MediaError(
        'too-large',
        `${run.what}: a frame is more than the ${(run.maxPixels / 1e6).toFixed(0)} megapixels ffmpeg may decode here (the worker's memory per item): ${err.message}`,
        { cause: err },
      );
    throw new MediaError(failureKind(err), `${run.what}: ffmpeg failed: ${errorMessage(err)}`, { cause: err });
  }
}

/** What ffmpeg/ffprobe print when the machine, not the file, is at fault: worth a retry. */
const ENVIRONMENT_ERRORS =
  /No space left on device|Cannot allocate memory|Out of memory|Resource temporarily unavailable|Too many open files|Permission denied|Input\/output error|Disk quota exceeded/i;

/**
 * Deterministic or transient. A tool that ran and exited non-zero refused the file itself (a broken header, no
 * decodable stream): the same bytes fail the same way on every retry, so the item fails at once with ffmpeg's
 * reason ('corrupt') — unless its message names the machine (disk full, out of memory…). A missing binary, a
 * kill, a timeout or too much output is 'tool': a retry (or another worker) may do better.
 */
export function failureKind(err: unknown): 'corrupt' | 'tool' {
  if (!(err instanceof ToolFailure) || err.kind !== 'exit') return 'tool';
  return ENVIRONMENT_ERRORS.test(err.message) ? 'tool' : 'corrupt';
}

type FailureReason = 'spawn' | 'exit' | 'signal' | 'timeout' | 'output';

/** How a run of ffmpeg or ffprobe failed (its `kind`). */
export class ToolFailure extends KindedError<FailureReason> {}

/**
 * One run of `tool` with its stdout collected (at most `maxOutputBytes`) and the tail of its stderr
 * kept for the error. SIGKILL on timeout: a process stuck in a read may not heed SIGTERM.
 */
function runTool(
  tool: 'ffmpeg' | 'ffprobe',
  args: string[],
  opts: { timeoutSeconds: number; maxOutputBytes: number },
): Promise<Buffer> {
  const bin = (tool === 'ffmpeg' ? process.env.FFMPEG_PATH : process.env.FFPROBE_PATH) || tool;
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let failure: ToolFailure | null = null;
    let exited = false;
    let settled = false;
    const finish = (err: ToolFailure | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(Buffer.concat(out));
    };
    const stop = (why: ToolFailure) => {
      failure ??= why;
      child.kill('SIGKILL');
      if (exited) finish(failure);
    };
    const timer = setTimeout(
      () => stop(new ToolFailure('timeout', `did not finish within ${opts.timeoutSeconds} s; killed`)),
      opts.timeoutSeconds * 1000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > opts.maxOutputBytes)
        stop(new ToolFailure('output', `wrote more than ${opts.maxOutputBytes} bytes; killed`));
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-8192);
    });
    child.once('error', (err) => finish(new ToolFailure('spawn', `cannot run ${bin}: ${err.message}`, { cause: err })));
    // A killed process is done at its exit: its own children may hold the pipes open past it.
    child.once('exit', () => {
      exited = true;
      if (failure) finish(failure);
    });
    child.once('close', (code, signal) => {
      if (failure || signal) return finish(failure ?? new ToolFailure('signal', `killed by ${signal}`));
      // A frame over -max_pixels is the reason, however many lines of consequences follow it.
      const overMaxPixels = stderr.split('\n').find((line) => OVER_MAX_PIXELS.test(line));
      finish(
        code === 0 ? null : new ToolFailure('exit', overMaxPixels?.trim() || lastLines(stderr) || `exit code ${code}`),
      );
    });
  });
}

/** The reason is at the end of ffmpeg's stderr; the context pointers ("[mov,mp4 @ 0x55…]") dropped: a reason users read, stable across runs. */
function lastLines(text: string, n = 3): string {
  return text
    .trim()
    .split('\n')
    .slice(-n)
    .join(' | ')
    .replace(/ @ 0x[0-9a-f]+\]/gi, ']');
}
