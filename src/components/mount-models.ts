/**
 * Mount helpers for the model UI, so the shell can place the panels without knowing their props:
 *   mountDiagnostics(target)            the diagnostics panel (embedded model vs the PyTorch fixture)
 *   mountModelPicker(target, props)     the model picker (registry, sizes, fit, download progress)
 * Each returns a function that unmounts the component.
 */
import { mount, unmount } from 'svelte';
import ModelDiagnostics from './ModelDiagnostics.svelte';
import ModelPicker from './ModelPicker.svelte';
import type { ModelClient, ModelHandle } from '../runtime/client';
import type { Device, Dtype } from '../runtime/types';

export function mountDiagnostics(target: HTMLElement, props: { client?: ModelClient } = {}): () => void {
  const c = mount(ModelDiagnostics, { target, props });
  return () => void unmount(c);
}

export function mountModelPicker(
  target: HTMLElement,
  props: {
    client?: ModelClient;
    onSelect?: (s: { model: string; device: Device; dtype: Dtype }) => void;
    onLoaded?: (h: ModelHandle) => void;
  } = {},
): () => void {
  const c = mount(ModelPicker, { target, props });
  return () => void unmount(c);
}
