import { loadedModels as registry, type LoadedModelEntry } from '../runtime/client';

/** The models loaded in this page, mirrored from the runtime's registry into reactive state for the status bar. */
export const loadedModels = $state<{ list: LoadedModelEntry[] }>({ list: [] });
registry.subscribe((list) => (loadedModels.list = list));
