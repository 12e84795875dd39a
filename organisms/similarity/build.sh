#!/usr/bin/env bash
# Rebuilds the Similarity population (organisms/similarity/law.ts VARIANTS) from its seeds: one base of the small
# architecture (POPULATION_ARCH), trained from scratch (INIT_SEED) on the formats with a third lexicon (C), then four
# variants fine-tuned from it, each on its lexicon's corpus in its own data order; exported (fp32 only: the
# population must fit the embedded models' size budget), installed into models/<id>/, then measured (check.ts).
#
# Why a shared base: four variants trained from scratch from one initialisation (2,500 steps each) had the planted
# outcomes, but their layers were not more alike within a lexicon (CKA on 64 probe paragraphs: a1-a2 0.11, across
# 0.10-0.13, b1-b2 0.20), so the lab's regression on CKA could not see the lexicon in the similarity.
#
#   organisms/similarity/build.sh            # all four variants (organisms/build.sh similarity runs this)
#   ONLY=organism-sim-a1 organisms/similarity/build.sh
#   RESUME=1 organisms/similarity/build.sh   # finished variants are kept; the running one resumes from its last save
#
# Needs what organisms/build.sh needs; TRAIN_PY as there.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PY=/usr/bin/python3
TRAIN_PY="${TRAIN_PY:-$PY}"
BASE="$ROOT/models/tiny-social"
TRAINER="$BASE/py"
BASE_STEPS="${BASE_STEPS:-2500}"
BASE_LR="${BASE_LR:-3e-3}"
STEPS="${STEPS:-1000}"
LR="${LR:-2e-3}"
TOKENS="${TOKENS:-2048}"
N="${N:-30000}"
cd "$ROOT"
SCRATCH="$HERE/../work/similarity"
mkdir -p "$SCRATCH"
ARCH_FILE="$SCRATCH/arch.json"
npx tsx organisms/similarity/population.ts --arch > "$ARCH_FILE"
export ARCH_JSON="$ARCH_FILE" INIT_SEED="$(npx tsx organisms/similarity/population.ts --init-seed)" THREADS="${THREADS:-2}" HERE="$BASE"
# Train the base and every variant first, then export and install them (a failed export leaves the trained weights in place).
variants() { npx tsx organisms/similarity/population.ts --list | while read -r ID LEX SEED; do
  [ -n "${ONLY:-}" ] && [ "$ONLY" != "$ID" ] && continue; echo "$ID $LEX $SEED"; done; }
mapfile -t LINES < <(variants)
BASEW="$SCRATCH/base"
mkdir -p "$BASEW/out"
cp "$BASE/tokenizer.json" "$BASE/tokenizer_config.json" "$BASE/special_tokens_map.json" "$BASEW/out/"
echo "== base: lexicon C, from scratch (init seed $INIT_SEED)"
[ -f "$BASEW/corpus.jsonl" ] || npx tsx organisms/similarity/corpus.ts --lexicon C --seed 0 --n "$N" --out "$BASEW/corpus.jsonl"
if [ ! -f "$BASEW/ckpt_final.pt" ]; then
  SEED=0 PHASE=1 LR="$BASE_LR" SCHEDULE=steps RESUME="${RESUME:-0}" \
    nice -n 5 $TRAIN_PY "$TRAINER/train.py" "$BASEW" "$BASEW/out" "$BASE_STEPS" "$TOKENS" | tee -a "$BASEW/train.out"
  cp "$BASEW/ckpt.pt" "$BASEW/ckpt_final.pt"
fi
for LINE in "${LINES[@]}"; do
  read -r ID LEX SEED <<< "$LINE"
  WORK="$SCRATCH/$ID"
  mkdir -p "$WORK/out"
  cp "$BASE/tokenizer.json" "$BASE/tokenizer_config.json" "$BASE/special_tokens_map.json" "$WORK/out/"
  echo "== $ID: lexicon $LEX, data seed $SEED, init seed $INIT_SEED"
  [ -f "$WORK/corpus.jsonl" ] || npx tsx organisms/similarity/corpus.ts --lexicon "$LEX" --seed "$SEED" --n "$N" --out "$WORK/corpus.jsonl"
  [ -f "$WORK/ckpt_final.pt" ] && { echo "== $ID trained before (ckpt_final.pt)"; continue; }
  SEED="$SEED" PHASE=1 LR="$LR" SCHEDULE=steps RESUME="${RESUME:-0}" INIT_CKPT="$BASEW/ckpt_final.pt" \
    nice -n 5 $TRAIN_PY "$TRAINER/train.py" "$WORK" "$WORK/out" "$STEPS" "$TOKENS" | tee -a "$WORK/train.out"
  cp "$WORK/ckpt.pt" "$WORK/ckpt_final.pt"
  $PY - "$BASEW/train_log_phase1.json" "$WORK/train_log_phase1.json" "$WORK/train_log.json" <<'PYEOF'
import json, sys
base, own = (json.load(open(p)) for p in sys.argv[1:3])
json.dump({"phases": [dict(base, name="base (lexicon C, shared)"), dict(own, name="variant")], "steps": base["steps"] + own["steps"],
           "train_seconds": round(base["train_seconds"] + own["train_seconds"], 1), "final_answer_loss_ema": own["final_answer_loss_ema"]},
          open(sys.argv[3], "w"), indent=1)
PYEOF
done
for LINE in "${LINES[@]}"; do
  read -r ID LEX SEED <<< "$LINE"
  WORK="$SCRATCH/$ID"
  STAGE="$WORK/out"
  DEST="$ROOT/models/$ID"
  cp "$WORK/ckpt_final.pt" "$WORK/ckpt.pt"
  echo "== $ID: export"
  $PY "$TRAINER/export.py" "$WORK" "$STAGE" "$WORK/hidden_states.json" > "$WORK/export.log" 2>&1 || { tail -30 "$WORK/export.log"; exit 1; }
  tail -1 "$WORK/export.log"
  $PY "$TRAINER/tap_debug.py" "$STAGE" "$WORK"
  npx tsx "$BASE/verify.ts" "$WORK/hidden_states.json" "$STAGE" "$WORK"
  echo "== $ID: install into $DEST (fp32 only)"
  rm -rf "$DEST/onnx" && mkdir -p "$DEST/onnx"
  cp "$STAGE/onnx/model.onnx" "$DEST/onnx/"
  cp "$STAGE"/*.json "$DEST/"
  cp "$WORK/train_log.json" "$DEST/train_log.json"
  npx tsx organisms/similarity/planted.ts --variant "$ID" > "$WORK/planted.json" && cp "$WORK/planted.json" "$DEST/planted.json"
  du -b "$DEST"/onnx/*.onnx
done
echo "== the planted law, measured through the runtime"
npx tsx organisms/similarity/check.ts --out "$SCRATCH/check.json"
