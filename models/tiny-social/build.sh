#!/usr/bin/env bash
# Rebuilds the embedded model tiny-social from a seed:
#   corpus (TypeScript, src/core/prompts) -> byte-level BPE tokenizer (our Python) -> training (plain PyTorch, CPU)
#   -> ONNX fp32 + q4 (MatMulNBits) + config -> PyTorch hidden-state fixture -> checks in Node -> tap fixtures.
#
#   models/tiny-social/build.sh                 # full build (SEED=1234, STEPS=0 i.e. auto within BUDGET s, TOKENS=3072)
#   STEPS=N models/tiny-social/build.sh         # exact reproduction of a build that ran N steps (see docs/embedded-model.md)
#   SMOKE=1 models/tiny-social/build.sh         # same layout, 30 training steps (for plumbing)
#
# Needs /usr/bin/python3 with Debian's python3-torch, python3-onnx, python3-numpy (and libopenblas0-pthread), and
# the repo's node_modules. Scratch files go to models/tiny-social/work/ (gitignored).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PY=/usr/bin/python3
WORK="$HERE/work"
STAGE="$WORK/out"   # built here, checked, then copied into place (the working tree stays consistent meanwhile)
FIXTURE="$ROOT/test/fixtures/embedded/hidden_states.json"
SEED="${SEED:-1234}"
N_EXAMPLES="${N_EXAMPLES:-24000}"
STEPS="${STEPS:-0}"   # 0 = auto: as many steps as fit in BUDGET seconds (default 1980)
TOKENS="${TOKENS:-3072}"
if [ "${SMOKE:-0}" = "1" ]; then STEPS=30; fi
export SEED THREADS="${THREADS:-2}" BUDGET="${BUDGET:-1980}"
rm -rf "$STAGE" && mkdir -p "$WORK" "$STAGE"
cd "$ROOT"

echo "== corpus (seed $SEED, $N_EXAMPLES examples)"
npx tsx models/tiny-social/corpus.ts --seed "$SEED" --n "$N_EXAMPLES" --out "$WORK/corpus.jsonl"

echo "== tokenizer"
$PY "$HERE/py/train_tokenizer.py" "$WORK" "$STAGE"

echo "== training ($STEPS steps, $TOKENS tokens per batch)"
nice -n 5 $PY "$HERE/py/train.py" "$WORK" "$STAGE" "$STEPS" "$TOKENS" | tee "$WORK/train.out"

echo "== export (onnx fp32, q4, config, fixture)"
$PY "$HERE/py/export.py" "$WORK" "$STAGE" "$WORK/hidden_states.json" > "$WORK/export.log" 2>&1 \
  || { tail -30 "$WORK/export.log"; exit 1; }
tail -1 "$WORK/export.log"

echo "== checks (onnxruntime-node and transformers.js against the PyTorch fixture)"
$PY "$HERE/py/tap_debug.py" "$STAGE" "$WORK"
npx tsx models/tiny-social/verify.ts "$WORK/hidden_states.json" "$STAGE"

echo "== install into models/tiny-social and test/fixtures/embedded"
rm -rf "$HERE/onnx"
cp -r "$STAGE"/onnx "$STAGE"/*.json "$HERE"/
mkdir -p "$(dirname "$FIXTURE")" && cp "$WORK/hidden_states.json" "$FIXTURE"
cp "$WORK/train_log.json" "$HERE/train_log.json"

if [ -f "$ROOT/test/fixtures/make_tap_fixtures.py" ]; then
  echo "== tap fixtures"
  $PY "$ROOT/test/fixtures/make_tap_fixtures.py"
fi

echo "== sizes"
du -b "$HERE"/config.json "$HERE"/generation_config.json "$HERE"/tokenizer.json "$HERE"/tokenizer_config.json \
  "$HERE"/special_tokens_map.json "$HERE"/onnx/*.onnx "$FIXTURE" "$HERE/train_log.json"
