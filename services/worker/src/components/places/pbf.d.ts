// pbf@3 ships no types; this is the part of its API the gazetteer loader uses.
declare module 'pbf' {
  class Pbf {
    constructor(buf?: Uint8Array);
    pos: number;
    length: number;
    readMessage<T>(fn: (tag: number, result: T, pbf: Pbf) => void, result: T): T;
    readString(): string;
    readVarint(): number;
    readSVarint(): number;
  }
  export = Pbf;
}
