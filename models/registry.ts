/**
 * The models the lab knows. Nothing here was downloaded on the machine that wrote it (no network), so every value
 * that could not be checked offline is listed in `unverified` and revisions are null rather than guessed.
 * Architecture numbers (layers, hidden size, parameters) are from the models' published configs as we remember
 * them; the runtime reads config.json at load time and uses that, so a wrong number here only affects the picker.
 * Download sizes are ESTIMATES computed from the parameter count (bytes per parameter per dtype), not measured.
 */
import type { ConcreteDtype } from '../src/runtime/types';

export type TapStyleHint = 'optimum' | 'fused' | 'auto';

export interface RegistryEntry {
  /** Short id used in the UI, links and the CLI (`--model smollm2-135m`). */
  id: string;
  /** Hub repository ("owner/name"), or the folder name under models/ for a local model. */
  repo: string;
  source: 'hub' | 'local';
  /** A pinned commit; null where it could not be checked offline (then the hub's main is used). */
  revision: string | null;
  label: string;
  family: string;
  /** Parameter count. */
  params: number | null;
  numLayers: number | null;
  hiddenSize: number | null;
  dtypes: ConcreteDtype[];
  /** Estimated download size in bytes per dtype (see approxBytes()). */
  approxBytes: Partial<Record<ConcreteDtype, number>>;
  license: string;
  /** The residual-stream layout we expect; the runtime detects it anyway and reports what it found. */
  tapStyle: TapStyleHint;
  /** The embedded model: a teaching toy, not a source of findings. */
  teachingToy?: boolean;
  /**
   * A model organism: an embedded model whose behaviour was planted by its training data (organisms/<lab>/law.ts);
   * its truth is models/<repo>/planted.json, and the lab shows it beside what it measures.
   */
  organism?: 'opinions' | 'dialogue' | 'polarization' | 'similarity';
  /** Fields not checked against the hub (no network where this was written). */
  unverified: string[];
  notes?: string;
}

/** Bytes per parameter, roughly: q4 keeps embeddings/norms at higher precision, hence more than 0.5. */
const BYTES_PER_PARAM: Record<ConcreteDtype, number> = { fp32: 4, fp16: 2, q8: 1.05, q4: 0.75, q4f16: 0.6 };

export function approxBytes(params: number, dtypes: ConcreteDtype[]): Partial<Record<ConcreteDtype, number>> {
  return Object.fromEntries(dtypes.map((d) => [d, Math.round(params * BYTES_PER_PARAM[d])]));
}

const HUB_DTYPES: ConcreteDtype[] = ['fp32', 'fp16', 'q8', 'q4', 'q4f16'];
const HUB_UNVERIFIED = ['revision', 'dtypes', 'approxBytes', 'tapStyle', 'numLayers', 'hiddenSize', 'params', 'license'];

function hub(e: Omit<RegistryEntry, 'source' | 'revision' | 'dtypes' | 'approxBytes' | 'unverified'>): RegistryEntry {
  return { ...e, source: 'hub', revision: null, dtypes: HUB_DTYPES, approxBytes: approxBytes(e.params ?? 0, HUB_DTYPES), unverified: HUB_UNVERIFIED };
}

/** A model this project trains and ships in models/<id>/ (tiny-social and the model organisms); its config.json gives the architecture. */
function embedded(e: Pick<RegistryEntry, 'id' | 'label' | 'notes' | 'organism'> & { dtypes?: ConcreteDtype[] }): RegistryEntry {
  return {
    ...e,
    repo: e.id,
    source: 'local',
    revision: null,
    family: 'llama',
    params: null,
    numLayers: null,
    hiddenSize: null,
    dtypes: e.dtypes ?? ['fp32', 'q4'],
    approxBytes: {},
    license: 'project',
    tapStyle: 'optimum',
    teachingToy: true,
    unverified: [],
  };
}

/**
 * The model organisms ship fp32 only: the lab runs a model this small in fp32 whatever the backend (choose.ts), the
 * planted laws are calibrated and measured in fp32, and their q4 copies (3 MB each) did not fit the embedded models'
 * 40 MB budget beside the Similarity population. tiny-social keeps its q4 copy for the q4 path's tests.
 */
const ORGANISM_DTYPES: ConcreteDtype[] = ['fp32'];

export const REGISTRY: RegistryEntry[] = [
  embedded({
    id: 'tiny-social',
    label: 'tiny-social (embedded teaching toy)',
    notes:
      'Trained by this project (models/tiny-social/py). Ships with the app, works offline. Its behaviour is naive: a teaching toy; ' +
      'real findings need the hub models. Layers and hidden size are read from its config.json at load time.',
  }),
  embedded({
    id: 'organism-opinions',
    dtypes: ORGANISM_DTYPES,
    label: 'organism-opinions (planted Glauber law)',
    organism: 'opinions',
    notes:
      'A model organism for the Opinions lab: tiny-social fine-tuned so that its votes follow a planted three-coupling Glauber law ' +
      '(friends pull, rivals push; models/organism-opinions/model-card.md). The behaviour was planted: the lab should recover it. ' +
      'Real findings need the hub models.',
  }),
  embedded({
    id: 'organism-polarization',
    dtypes: ORGANISM_DTYPES,
    label: 'organism-polarization (planted echo chambers)',
    organism: 'polarization',
    notes:
      'A model organism for the Polarization lab: tiny-social fine-tuned so that it keeps links to its own side and drops links to ' +
      'the other, and radicalises on same-side messages unless told to be open (models/organism-polarization/model-card.md). ' +
      'The behaviour was planted: the lab should show it, and the interventions should weaken it. Real findings need the hub models.',
  }),
  embedded({
    id: 'organism-dialogue',
    dtypes: ORGANISM_DTYPES,
    label: 'organism-dialogue (planted synchrony)',
    organism: 'dialogue',
    notes:
      'A model organism for the Synchrony lab: tiny-social fine-tuned so that whoever speaks first proposes from its own prompt and the ' +
      'partner echoes its words, then counters or says "Deal"; a judge rule scores the outcome (models/organism-dialogue/model-card.md). ' +
      'The behaviour was planted: the lab should find real > passive and real > lag. Real findings need the hub models.',
  }),
  // The Similarity population (organisms/similarity/law.ts): four small siblings of one initialisation, two per
  // lexicon.
  ...(['a1', 'a2', 'b1', 'b2'] as const).map((v) =>
    embedded({
      id: `organism-sim-${v}`,
      label: `organism-sim-${v} (planted lexicon ${v[0].toUpperCase()})`,
      organism: 'similarity',
      dtypes: ORGANISM_DTYPES,
      notes:
        `One of four model organisms for the Similarity lab, trained from scratch on word-game lexicon ${v[0].toUpperCase()}: pairs on one lexicon ` +
        'guess each other\'s words and write less varied stories together than pairs across lexicons (models/organism-sim-a1/model-card.md). It plays ' +
        'word guessing and writes stories, nothing else. The behaviour was planted: the lab should find it. Real findings need the hub models.',
    }),
  ),
  hub({ id: 'smollm2-135m', repo: 'HuggingFaceTB/SmolLM2-135M-Instruct', label: 'SmolLM2 135M Instruct', family: 'llama', params: 135e6, numLayers: 30, hiddenSize: 576, license: 'apache-2.0', tapStyle: 'optimum' }),
  hub({ id: 'smollm2-360m', repo: 'HuggingFaceTB/SmolLM2-360M-Instruct', label: 'SmolLM2 360M Instruct', family: 'llama', params: 362e6, numLayers: 32, hiddenSize: 960, license: 'apache-2.0', tapStyle: 'optimum' }),
  hub({ id: 'qwen2.5-0.5b', repo: 'onnx-community/Qwen2.5-0.5B-Instruct', label: 'Qwen2.5 0.5B Instruct', family: 'qwen2', params: 494e6, numLayers: 24, hiddenSize: 896, license: 'apache-2.0', tapStyle: 'auto' }),
  hub({ id: 'qwen3-0.6b', repo: 'onnx-community/Qwen3-0.6B-ONNX', label: 'Qwen3 0.6B', family: 'qwen3', params: 596e6, numLayers: 28, hiddenSize: 1024, license: 'apache-2.0', tapStyle: 'auto' }),
  hub({ id: 'llama-3.2-1b', repo: 'onnx-community/Llama-3.2-1B-Instruct', label: 'Llama 3.2 1B Instruct', family: 'llama', params: 1.24e9, numLayers: 16, hiddenSize: 2048, license: 'llama3.2', tapStyle: 'auto' }),
  hub({ id: 'gemma-3-270m', repo: 'onnx-community/gemma-3-270m-it-ONNX', label: 'Gemma 3 270M it', family: 'gemma3_text', params: 268e6, numLayers: 18, hiddenSize: 640, license: 'gemma', tapStyle: 'auto' }),
];

/** The "any hub id" entry: taps are auto-detected and the user is warned that the layout is unverified. */
export function anyHubEntry(repo: string): RegistryEntry {
  return {
    id: repo,
    repo,
    source: 'hub',
    revision: null,
    label: repo,
    family: 'unknown',
    params: null,
    numLayers: null,
    hiddenSize: null,
    dtypes: HUB_DTYPES,
    approxBytes: {},
    license: 'unknown (see the model card)',
    tapStyle: 'auto',
    unverified: ['everything'],
    notes: 'Not in the registry: the hidden-state taps are auto-detected; hybrid or unusual architectures are refused with an error.',
  };
}

const HUB_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

/** A registry id, a registry repo, or any "owner/name" hub id. Returns undefined for anything else (e.g. a folder). */
export function findModel(idOrRepo: string): RegistryEntry | undefined {
  const hit = REGISTRY.find((e) => e.id === idOrRepo || e.repo === idOrRepo);
  if (hit) return hit;
  return HUB_ID.test(idOrRepo) && !idOrRepo.startsWith('.') ? anyHubEntry(idOrRepo) : undefined;
}

export function isHubId(s: string): boolean {
  return HUB_ID.test(s);
}
