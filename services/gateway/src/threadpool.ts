/**
 * More threads for file I/O than libuv's default 4 (the entrypoint's first import: libuv sizes the
 * pool when it is first used). Every upload ends in fsyncs (data, sidecar, directories), each
 * holding a thread until the disk answers; with 4 threads, four uploads committing stall every
 * other upload's writes behind them. UV_THREADPOOL_SIZE set by the operator wins.
 */
process.env.UV_THREADPOOL_SIZE ??= '16';
