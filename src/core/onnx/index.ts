export { Reader, Writer, ProtobufError } from './protobuf';
export { readOnnxTopology, OnnxFormatError, type OnnxModelTopology, type OnnxGraphTopology, type OnnxNode, type OnnxValueInfo } from './model';
export {
  TAP_OUTPUT,
  detectTaps,
  buildTapSuffix,
  patchOnnx,
  isTapped,
  TapDetectionError,
  type TapPlan,
  type TapSource,
  type TapStyle,
  type TapOptions,
  type PatchResult,
} from './taps';
