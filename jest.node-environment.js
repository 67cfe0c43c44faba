// jest's node environment, with the typed arrays of Node's own realm: onnxruntime-node (the worker's OCR) makes its
// output tensors' arrays natively and onnxruntime-common checks them with `instanceof Float32Array`, which fails
// against the sandbox's own Float32Array ("A float32 tensor's data must be type of Float32Array").
const { TestEnvironment } = require('jest-environment-node');

const TYPED = [
  'Float32Array',
  'Float64Array',
  'Int8Array',
  'Uint8Array',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
  'Uint8ClampedArray',
];

class NodeRealmEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED) this.global[name] = globalThis[name];
  }
}

module.exports = NodeRealmEnvironment;
