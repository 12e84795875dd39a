/**
 * Stand-alone page for the model diagnostics (diagnostics.html), used by test/browser/runtime.test.ts until the shell
 * mounts the panel at #/models. Once it does, this entry and diagnostics.html can go.
 */
import { mountDiagnostics, mountModelPicker } from './mount-models';
import { ModelClient } from '../runtime/client';

const client = new ModelClient();
mountDiagnostics(document.getElementById('diagnostics')!, { client });
mountModelPicker(document.getElementById('picker')!, { client });
