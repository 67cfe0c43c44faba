/**
 * The model runtimes and loading shared by the vision components: onnxruntime (things and faces, from ONNX files
 * converted at vendor time from tfjs graphs) and TensorFlow.js, which now only the conversion tests use, to run the
 * vendored tfjs graphs as their reference.
 */
export { letterbox } from './letterbox';
export type { Letterboxed } from './letterbox';
export { fileModelHandler, MODELS_DIR, modelJsonPath, packageRoot } from './model-files';
export { ModelLoadError, sharedModel } from './models';
export type { SharedModelOptions } from './models';
export { tf, visionRuntime } from './runtime';
export type { VisionRuntime } from './runtime';
export { onnxModelPath, ort, SESSION_OPTIONS, sharedSession } from './onnx';
export type { SharedSessionOptions } from './onnx';
