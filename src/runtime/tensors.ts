/** Small helpers on transformers.js tensors, shared by the runtime and its batched sampler. */

/* eslint-disable @typescript-eslint/no-explicit-any -- transformers.js tensors are typed loosely at this boundary */
type TF = any;

export const now = () => performance.now();

/** A tensor's data as fp32, downloading (and releasing) it when it lives on the GPU. */
export async function readTensor(t: TF): Promise<Float32Array> {
  if (t.location === 'gpu-buffer') return new Float32Array((await t.ort_tensor.getData(true)) as Float32Array);
  return new Float32Array(t.data as Float32Array);
}
