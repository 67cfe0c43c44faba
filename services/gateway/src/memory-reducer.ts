import { setFlagsFromString } from 'node:v8';

/**
 * V8's memory reducer off (the entrypoint's first imports). It runs extra major collections to shrink
 * the heap once allocation slows down; in about half of the `make bench` upload runs (the gateway
 * idle a few seconds between its warm-up and the rounds) the gateway then ran a major collection
 * every fraction of a second for the rest of its life: 75 instead of 2 in a run, twice the CPU per
 * upload, `upload_vs_minimal_server` 0.64 instead of 0.79–0.86. With it off, four runs of four were
 * normal, though a later run was slow again: it is not the only cause (README, performance). The heap
 * is still collected and shrunk by the ordinary major collections.
 */
setFlagsFromString('--no-memory-reducer');
