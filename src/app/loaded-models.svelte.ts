export interface LoadedModel {
  id: string;
  backend: string;
  dtype: string;
}

/** The models loaded in this page, as the status bar shows them; the model runtime keeps it current. */
export const loadedModels = $state<{ list: LoadedModel[] }>({ list: [] });
