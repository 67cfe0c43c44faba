#!/usr/bin/env node
/**
 * Converts a TensorFlow.js graph model (model.json and its weight shards) into an ONNX model that onnxruntime runs,
 * at vendor time (scripts/vendor-models.sh; see models/<name>/manifest.json). Deterministic: the same files give the
 * same bytes, so the committed .onnx can be checked against its source.
 *
 *   node scripts/tfjs-to-onnx.mjs models/faceres/faceres.json models/faceres/faceres.onnx --outputs global_pooling/Mean
 *
 * Only the part of the graph the outputs need is converted. The ops are the ones the vendored graphs use (a clear
 * error names any other). The graph's input keeps TensorFlow's NHWC layout (the callers feed what tfjs was fed) and
 * is transposed once to ONNX's NCHW; weights are transposed here, and a tensor leaves NCHW only where the TensorFlow
 * op depends on the layout (Reshape). Quantised weights (float16, uint8/16) are dequantised to float32, as tfjs does
 * when it loads them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const onnx = protobuf.loadSync(fileURLToPath(new URL('onnx.proto', import.meta.url)));
const Model = onnx.lookupType('onnx.ModelProto');
const FLOAT = 1;
const INT64 = 7;
const ATTR = { FLOAT: 1, INT: 2, STRING: 3, INTS: 7 };
/** The NCHW position of each NHWC axis. */
const NCHW_AXIS = [0, 2, 3, 1];

/** The weights of the model, by name: { dtype, shape, values }. */
export function readWeights(jsonPath, manifest) {
  const dir = dirname(jsonPath);
  const weights = new Map();
  for (const group of manifest) {
    const data = Buffer.concat(group.paths.map((p) => readFileSync(join(dir, p))));
    let at = 0;
    for (const { name, shape, dtype, quantization: q } of group.weights) {
      const size = shape.reduce((a, b) => a * b, 1);
      const stored = q?.dtype ?? dtype;
      const width = { float32: 4, int32: 4, float16: 2, uint16: 2, uint8: 1 }[stored];
      if (!width) throw new Error(`${name}: weights of type ${stored} are not supported`);
      const bytes = data.subarray(at, at + size * width);
      at += size * width;
      let values;
      if (stored === 'float32') values = new Float32Array(size).map((_, i) => bytes.readFloatLE(4 * i));
      else if (stored === 'int32') values = new Int32Array(size).map((_, i) => bytes.readInt32LE(4 * i));
      else if (stored === 'float16') values = new Float32Array(size).map((_, i) => half(bytes.readUInt16LE(2 * i)));
      else {
        const read = (i) => (width === 1 ? bytes[i] : bytes.readUInt16LE(2 * i));
        values = new Float32Array(size).map((_, i) => read(i) * q.scale + q.min);
      }
      weights.set(name, { dtype, shape, values });
    }
  }
  return weights;
}

/** An IEEE 754 half-precision number. */
function half(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

const attrValue = (node, key) => node.attr?.[key];
const ints = (node, key) => attrValue(node, key)?.list?.i?.map(Number) ?? [];
const str = (node, key) => {
  const v = attrValue(node, key);
  return v?.s === undefined ? undefined : Buffer.from(v.s, 'base64').toString();
};
const strs = (node, key) => (attrValue(node, key)?.list?.s ?? []).map((s) => Buffer.from(s, 'base64').toString());
const source = (input) => input.replace(/^\^/, '').replace(/:0$/, '');

export function convert(jsonPath, outputs) {
  const model = JSON.parse(readFileSync(jsonPath, 'utf8'));
  const weights = readWeights(jsonPath, model.weightsManifest);
  const byName = new Map(model.modelTopology.node.map((n) => [n.name, n]));
  const order = [];
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const node = byName.get(name);
    if (!node) throw new Error(`no node ${name}`);
    for (const input of node.input ?? []) if (!input.startsWith('^')) visit(source(input));
    order.push(node);
  };
  for (const output of outputs) visit(output);

  const consumers = new Map();
  for (const node of order)
    for (const input of node.input ?? []) consumers.set(source(input), (consumers.get(source(input)) ?? 0) + 1);
  const isConst = (name) => byName.get(name)?.op === 'Const';
  const constOf = (name) => {
    const w = weights.get(name);
    if (!w) throw new Error(`constant ${name} has no weights`);
    return w;
  };
  const scalarConst = (name) => (isConst(name) && constOf(name).values.length === 1 ? constOf(name).values[0] : null);

  // Relu → Minimum(6) → Maximum(0), Keras' ReLU6, is one Clip.
  const clips = new Map();
  const absorbed = new Set();
  for (const node of order) {
    if (node.op !== 'Maximum' || scalarConst(source(node.input[1])) !== 0) continue;
    const min = byName.get(source(node.input[0]));
    if (min?.op !== 'Minimum' || !(scalarConst(source(min.input[1])) > 0) || consumers.get(min.name) !== 1) continue;
    const relu = byName.get(source(min.input[0]));
    if (relu?.op !== 'Relu' || consumers.get(relu.name) !== 1) continue;
    clips.set(node.name, { x: source(relu.input[0]), max: scalarConst(source(min.input[1])) });
    absorbed.add(min.name).add(relu.name);
  }

  const nodes = [];
  const initializers = [];
  const inputs = [];
  const layout = new Map(); // tensor → 'nchw' (a 4-D NHWC TensorFlow tensor held as NCHW) or 'plain'
  const made = new Set();
  const renamed = new Map(); // TensorFlow tensor → the ONNX tensor holding it, where they differ
  const tensor = (name, dataType, dims, values) => {
    if (!made.has(name)) {
      made.add(name);
      const raw =
        dataType === INT64
          ? Buffer.from(BigInt64Array.from(values, (v) => BigInt(v)).buffer)
          : Buffer.from(Float32Array.from(values).buffer);
      initializers.push({ name, dataType, dims, rawData: raw });
    }
    return name;
  };
  const attribute = (name, value) => {
    if (Array.isArray(value)) return { name, type: ATTR.INTS, ints: value };
    if (typeof value === 'string') return { name, type: ATTR.STRING, s: Buffer.from(value) };
    if (Number.isInteger(value)) return { name, type: ATTR.INT, i: value };
    return { name, type: ATTR.FLOAT, f: value };
  };
  const emit = (opType, input, output, name, attrs = {}) => {
    nodes.push({
      input,
      output: [output],
      name,
      opType,
      attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
    });
    return output;
  };
  /** An elementwise operand: constants shaped to broadcast against an NCHW tensor. */
  const operand = (name, nchw) => {
    if (!isConst(name)) return name;
    const { shape, values } = constOf(name);
    if (!nchw || shape.length === 0 || values.length === 1)
      return tensor(name, FLOAT, values.length === 1 ? [] : shape, values);
    if (shape.length !== 1) throw new Error(`${name}: a constant of shape [${shape}] against an NHWC tensor`);
    return tensor(`${name}/c11`, FLOAT, [shape[0], 1, 1], values);
  };
  const spatial = (node, conv) => {
    const strides = ints(node, 'strides');
    const padding = str(node, 'padding');
    if (str(node, 'data_format') && str(node, 'data_format') !== 'NHWC') throw new Error(`${node.name}: not NHWC`);
    if (padding !== 'SAME' && padding !== 'VALID') throw new Error(`${node.name}: padding ${padding}`);
    const attrs = { auto_pad: padding === 'SAME' ? 'SAME_UPPER' : 'VALID', strides: [strides[1], strides[2]] };
    if (conv) {
      const dilations = ints(node, 'dilations');
      attrs.dilations = dilations.length ? [dilations[1], dilations[2]] : [1, 1];
    }
    return attrs;
  };
  const needNchw = (node, x) => {
    if (layout.get(x) !== 'nchw') throw new Error(`${node.name}: ${node.op} of a tensor that is not 4-D NHWC`);
  };

  for (const node of order) {
    const { op, name } = node;
    const ins = (node.input ?? []).filter((i) => !i.startsWith('^')).map(source);
    if (op === 'Const' || absorbed.has(name)) continue;
    if (op === 'Placeholder') {
      const dims = attrValue(node, 'shape').shape.dim.map((d) => Number(d.size));
      inputs.push({
        name,
        type: {
          tensorType: {
            elemType: FLOAT,
            shape: { dim: dims.map((d) => (d < 0 ? { dimParam: 'batch' } : { dimValue: d })) },
          },
        },
      });
      if (dims.length === 4) {
        emit('Transpose', [name], `${name}/nchw`, `${name}/nchw`, { perm: [0, 3, 1, 2] });
        layout.set(name, 'nchw');
        renamed.set(name, `${name}/nchw`);
      } else layout.set(name, 'plain');
      continue;
    }
    const x = renamed.get(ins[0]) ?? ins[0];
    const out = (n) => {
      layout.set(name, n);
      return name;
    };
    if (clips.has(name)) {
      const { x: from, max } = clips.get(name);
      const min0 = tensor(`${name}/min`, FLOAT, [], [0]);
      const max6 = tensor(`${name}/max`, FLOAT, [], [max]);
      emit('Clip', [renamed.get(from) ?? from, min0, max6], name, name);
      out(layout.get(from));
    } else if (['Conv2D', '_FusedConv2D', 'DepthwiseConv2dNative', 'FusedDepthwiseConv2dNative'].includes(op)) {
      needNchw(node, ins[0]);
      const { shape, values } = constOf(ins[1]);
      const [kh, kw, ci, co] = shape;
      const depthwise = op.endsWith('DepthwiseConv2dNative');
      const outChannels = depthwise ? ci * co : co;
      const w = new Float32Array(values.length);
      for (let y = 0; y < kh; y++)
        for (let xx = 0; xx < kw; xx++)
          for (let i = 0; i < ci; i++)
            for (let o = 0; o < co; o++) {
              const from = ((y * kw + xx) * ci + i) * co + o;
              w[depthwise ? ((i * co + o) * kh + y) * kw + xx : ((o * ci + i) * kh + y) * kw + xx] = values[from];
            }
      const wName = tensor(`${ins[1]}/oihw`, FLOAT, [outChannels, depthwise ? 1 : ci, kh, kw], w);
      const convIn = [x, wName];
      const fused = op.includes('Fused') ? strs(node, 'fused_ops') : [];
      if (fused.length && fused[0] !== 'BiasAdd') throw new Error(`${name}: fused ${fused}`);
      if (fused.length) convIn.push(tensor(ins[2], FLOAT, [outChannels], constOf(ins[2]).values));
      const attrs = { ...spatial(node, true), ...(depthwise ? { group: ci } : {}) };
      const activation = fused[1];
      if (activation && activation !== 'Relu') throw new Error(`${name}: fused ${fused}`);
      if (fused.length > 2) throw new Error(`${name}: fused ${fused}`);
      if (activation) emit('Relu', [emit('Conv', convIn, `${name}/conv`, `${name}/conv`, attrs)], name, name);
      else emit('Conv', convIn, name, name, attrs);
      out('nchw');
    } else if (['Add', 'AddV2', 'Sub', 'Mul', 'Minimum', 'Maximum', 'RealDiv'].includes(op)) {
      const nchw = ins.some((i) => layout.get(i) === 'nchw');
      if (ins.some((i) => !isConst(i) && layout.get(i) !== (nchw ? 'nchw' : 'plain')))
        throw new Error(`${name}: operands of different layouts`);
      const onnxOp = { AddV2: 'Add', Minimum: 'Min', Maximum: 'Max', RealDiv: 'Div' }[op] ?? op;
      emit(
        onnxOp,
        [operand(ins[0], nchw), operand(ins[1], nchw)].map((i) => renamed.get(i) ?? i),
        name,
        name,
      );
      out(nchw ? 'nchw' : 'plain');
    } else if (['Relu', 'Sigmoid', 'Identity', 'Tanh'].includes(op)) {
      emit(op, [x], name, name);
      out(layout.get(ins[0]));
    } else if (op === 'Relu6') {
      const min0 = tensor(`${name}/min`, FLOAT, [], [0]);
      const max6 = tensor(`${name}/max`, FLOAT, [], [6]);
      emit('Clip', [x, min0, max6], name, name);
      out(layout.get(ins[0]));
    } else if (op === 'ResizeBilinear') {
      // TensorFlow's default sampling (align_corners and half_pixel_centers false) is ONNX's 'asymmetric' one.
      needNchw(node, ins[0]);
      if (attrValue(node, 'align_corners')?.b || attrValue(node, 'half_pixel_centers')?.b)
        throw new Error(`${name}: ResizeBilinear with align_corners or half_pixel_centers`);
      const size = constOf(ins[1]).values;
      // The output size [n, c, h, w] from the input's n and c (whatever the batch) and the graph's h and w.
      const shape = emit('Shape', [x], `${name}/shape`, `${name}/shape`);
      const starts = tensor(`${name}/nc/starts`, INT64, [1], [0]);
      const ends = tensor(`${name}/nc/ends`, INT64, [1], [2]);
      const nc = emit('Slice', [shape, starts, ends], `${name}/nc`, `${name}/nc`);
      const hw = tensor(`${ins[1]}/int64`, INT64, [2], size);
      const sizes = emit('Concat', [nc, hw], `${name}/sizes`, `${name}/sizes`, { axis: 0 });
      emit('Resize', [x, '', '', sizes], name, name, {
        coordinate_transformation_mode: 'asymmetric',
        mode: 'linear',
      });
      out('nchw');
    } else if (op === 'ConcatV2') {
      const parts = ins.slice(0, -1);
      const axis = constOf(ins[ins.length - 1]).values[0];
      const nchw = parts.every((i) => layout.get(i) === 'nchw');
      if (!nchw && parts.some((i) => layout.get(i) !== 'plain'))
        throw new Error(`${name}: operands of different layouts`);
      emit(
        'Concat',
        parts.map((i) => renamed.get(i) ?? i),
        name,
        name,
        { axis: nchw ? NCHW_AXIS[(axis + 4) % 4] : axis },
      );
      out(nchw ? 'nchw' : 'plain');
    } else if (op === 'Softmax') {
      if (layout.get(ins[0]) !== 'plain') throw new Error(`${name}: Softmax of an NHWC tensor`);
      emit('Softmax', [x], name, name, { axis: -1 });
      out('plain');
    } else if (op === 'Mean') {
      needNchw(node, ins[0]);
      const axes = [...constOf(ins[1]).values].map((a) => NCHW_AXIS[a]);
      const keep = attrValue(node, 'keep_dims')?.b === true;
      if (!keep && axes.join() !== '2,3') throw new Error(`${name}: Mean over NHWC axes other than 1, 2`);
      emit('ReduceMean', [x], name, name, { axes, keepdims: keep ? 1 : 0 });
      out(keep ? 'nchw' : 'plain');
    } else if (op === 'MaxPool' || op === 'AvgPool') {
      needNchw(node, ins[0]);
      const k = ints(node, 'ksize');
      const attrs = { kernel_shape: [k[1], k[2]], ...spatial(node, false) };
      emit(op === 'MaxPool' ? 'MaxPool' : 'AveragePool', [x], name, name, attrs);
      out('nchw');
    } else if (op === 'Pad') {
      needNchw(node, ins[0]);
      const p = constOf(ins[1]).values;
      const order4 = [0, 3, 1, 2];
      const pads = [...order4.map((a) => p[2 * a]), ...order4.map((a) => p[2 * a + 1])];
      emit('Pad', [x, tensor(`${ins[1]}/nchw`, INT64, [8], pads)], name, name, { mode: 'constant' });
      out('nchw');
    } else if (op === 'Reshape') {
      let from = x;
      if (layout.get(ins[0]) === 'nchw')
        from = emit('Transpose', [x], `${name}/nhwc`, `${name}/nhwc`, { perm: [0, 2, 3, 1] });
      const shape = constOf(ins[1]).values;
      emit('Reshape', [from, tensor(`${ins[1]}/int64`, INT64, [shape.length], shape)], name, name);
      out('plain');
    } else if (op === '_FusedMatMul' || op === 'MatMul') {
      if (layout.get(ins[0]) !== 'plain') throw new Error(`${name}: MatMul of an NHWC tensor`);
      const fused = strs(node, 'fused_ops');
      if ((fused[0] && fused[0] !== 'BiasAdd') || (fused[1] && fused[1] !== 'Relu') || fused.length > 2)
        throw new Error(`${name}: fused ${fused}`);
      const b = constOf(ins[1]);
      const gemmIn = [x, tensor(ins[1], FLOAT, b.shape, b.values)];
      if (fused[0]) gemmIn.push(tensor(ins[2], FLOAT, constOf(ins[2]).shape, constOf(ins[2]).values));
      const attrs = {
        transA: attrValue(node, 'transpose_a')?.b ? 1 : 0,
        transB: attrValue(node, 'transpose_b')?.b ? 1 : 0,
      };
      if (fused[1]) emit('Relu', [emit('Gemm', gemmIn, `${name}/gemm`, `${name}/gemm`, attrs)], name, name);
      else emit('Gemm', gemmIn, name, name, attrs);
      out('plain');
    } else throw new Error(`${name}: the TensorFlow op ${op} is not supported`);
  }
  // A 4-D output leaves as TensorFlow gave it, NHWC: its NCHW tensor is renamed and transposed back.
  for (const output of outputs) {
    if (layout.get(output) !== 'nchw') continue;
    const inner = `${output}/nchw`;
    for (const n of nodes) {
      n.input = n.input.map((i) => (i === output ? inner : i));
      n.output = n.output.map((o) => (o === output ? inner : o));
    }
    emit('Transpose', [inner], output, `${output}/nhwc`, { perm: [0, 2, 3, 1] });
  }

  const message = Model.fromObject({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'trove tfjs-to-onnx',
    producerVersion: '1',
    docString: `converted from ${model.generatedBy ?? 'a tfjs graph model'} (${model.convertedBy ?? ''})`,
    graph: {
      name: 'main',
      node: nodes,
      initializer: initializers,
      input: inputs,
      output: outputs.map((name) => ({ name, type: { tensorType: { elemType: FLOAT } } })),
    },
  });
  return Buffer.from(Model.encode(message).finish());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--outputs');
  if (args.length !== 4 || at !== 2) {
    console.error('usage: tfjs-to-onnx.mjs MODEL.json OUT.onnx --outputs NAME[,NAME…]');
    process.exit(2);
  }
  writeFileSync(args[1], convert(args[0], args[3].split(',')));
}
