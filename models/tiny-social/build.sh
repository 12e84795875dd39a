#!/usr/bin/env bash
# Rebuilds the embedded model tiny-social from a seed:
#   corpus (TypeScript, src/core/prompts) -> byte-level BPE tokenizer (our Python) -> training (plain PyTorch, CPU)
#   -> ONNX fp32 + q4 (MatMulNBits) + config -> PyTorch hidden-state fixture -> checks in Node -> tap fixtures.
#
#   models/tiny-social/build.sh                 # the committed build's recipe: SEED=1234, phases 1-4 at fixed step
#                                               # counts, phase 5 on a 1000 s wall-clock schedule (see below), then
#                                               # phases 6 (350 steps) and 7 (200 steps) on step schedules
#   STEPS=0 PHASE2_STEPS=0 BUDGET=1800 models/tiny-social/build.sh   # auto step counts within a time budget per phase
#   SMOKE=1 models/tiny-social/build.sh         # same layout, 30 training steps (for plumbing)
#   FROM_PHASE5=1 models/tiny-social/build.sh   # only phase 5 (as committed), from work/ckpt_phase4.pt or, without
#                                               # it, from the phase-4 weights recovered (py/from_onnx.py) from the
#                                               # ONNX committed in $PHASE4_COMMIT
#   FROM_PHASE5=1 PHASE5_SCHEDULE=steps PHASE5_STEPS=505 models/tiny-social/build.sh   # phase 5, deterministic
#                                               # step schedule (same steps and data order, different lr curve)
#   FROM_PHASE6=1 models/tiny-social/build.sh   # phases 6 and 7 (as committed, step schedules),
#                                               # from work/ckpt_phase5.pt (phase 5 now saves it)
#   FROM_PHASE7=1 models/tiny-social/build.sh   # phase 7 only, from work/ckpt_phase6.pt
#
# Needs /usr/bin/python3 with Debian's python3-torch, python3-onnx, python3-numpy (and libopenblas0-pthread), and
# the repo's node_modules. Scratch files go to models/tiny-social/work/ (gitignored).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PY=/usr/bin/python3
WORK="$HERE/work"
STAGE="$WORK/out"   # built here, checked, then copied into place (the working tree stays consistent meanwhile)
FIXTURE="$ROOT/models/tiny-social/reference.json"
SEED="${SEED:-1234}"
N_EXAMPLES="${N_EXAMPLES:-24000}"
# Step counts of the committed build (both phases ran with STEPS=0, "auto": as many steps as fit in BUDGET seconds).
STEPS="${STEPS:-178}"
PHASE2_STEPS="${PHASE2_STEPS:-774}"   # "off" skips phases 2 and 3
PHASE3_STEPS="${PHASE3_STEPS:-369}"   # "off" skips phase 3
PHASE3_BOOST="similarity.word:6,similarity.hint:4,similarity.guess:6,synchrony.judge:2"
# Phase 4 (from phase 3) repeats the formats still under 90% parseable after phase 3: the letter-constrained word
# and guess, the haiku, the biography and the beauty-contest number.
PHASE4_STEPS="${PHASE4_STEPS:-450}"   # "off" skips phase 4
PHASE4_BOOST="similarity.word:16,similarity.guess:16,similarity.final.haiku:6,similarity.final.biography:4,similarity.beauty_contest:3,synchrony.judge:2"
# Phase 5 (from phase 4) teaches the letter constraint of the word game: the main corpus's word and guess examples
# are replaced by PHASE5_LETTERS letter examples (corpus.ts --letters: capitalised answers that start with the
# prompt's letter token, a quarter of the guesses with another letter's hint), repeated 3x; story, biography and
# haiku are repeated 3x; every other format is replayed once so that nothing regresses.
# Phase 5 was adopted (phases 6 and 7 continue from it) although the sampled fp32 judge fell from 93.2 % to 90.5 % over 600
# prompts, in exchange for the word game: 7/29 % -> 59/93 %, sampled/greedy; see docs/embedded-model.md).
# Phase 5 was trained with
#   FROM_PHASE5=1 PHASE5_STEPS=0 PHASE5_SCHEDULE=time BUDGET=1000
# which are the defaults below (PHASE5_BUDGET=1000): after the 30-step warm-up the cosine followed ELAPSED TIME /
# 1000 s and the phase stopped at 1000 s, which on that machine (2 shared cores, nice 19; 4-8 s/step for the first
# 100 steps under other engineers' load, 0.6-1.6 s/step after that) came to 505 steps (train_log.json, phase 5).
# A WALL-CLOCK SCHEDULE DEPENDS ON MACHINE SPEED AND LOAD: another machine, or the same one under another load, runs
# a different number of steps with a different lr per step, so no rerun reproduces the committed weights bit for bit.
# Nor can a step-count schedule: the lr of each step came from the clock, and train.py logged the elapsed time only
# every 20th step. PHASE5_SCHEDULE=steps PHASE5_STEPS=505 is the deterministic alternative: the same 505 steps and
# data order, but the cosine over steps, so the lr decays later than in the committed run (at step 200: 7.5e-4 vs
# 3.9e-4). Either way it is a new model: measure it (parse-rate.ts, fp32 and q4) before committing it.
PHASE5_STEPS="${PHASE5_STEPS:-0}"             # "off" skips phase 5; 0 = auto (PHASE5_BUDGET seconds)
PHASE5_SCHEDULE="${PHASE5_SCHEDULE:-time}"    # "time" (the committed run; needs PHASE5_STEPS=0) or "steps"
PHASE5_BUDGET="${PHASE5_BUDGET:-1000}"        # seconds for phase 5 when PHASE5_STEPS=0 (BUDGET is for phases 1-4)
PHASE5_LETTERS="${PHASE5_LETTERS:-6000}"
if [ "$PHASE5_STEPS" != "0" ]; then PHASE5_SCHEDULE=steps; fi   # train.py's time schedule exists only for auto (0)
PHASE5_BOOST="similarity.word:0,similarity.guess:0,letters.word:3,letters.guess:3,similarity.final.story:3,similarity.final.biography:3,similarity.final.haiku:3"
# Phase 6 (from phase 5) sharpens the letter game for SAMPLED answers (phase 5: word 59 %, guess 65 % at
# temperature 0.7) and restores the judge's share of the training text (x2 as in phases 3-4; phase 5 replayed it
# once): the same data as phase 5 with the letter examples repeated 6x instead of 3x and synchrony.judge x2, 350 steps
# on a STEP schedule (deterministic: fixed step count, warm-up 30, cosine over steps to 10 %; train.py logs every
# step's lr, "lr_per_step" in train_log.json), peak lr 8e-4. Measured (docs/embedded-model.md, "Phase 6"): word
# 59 -> 98 %, guess 65 -> 98 %, judge 92 -> 98 % sampled fp32; the fp32 haiku (85 %) and the q4 biography (88 %)
# stayed under 90 % sampled, which phase 7 addresses.
#   FROM_PHASE6=1 models/tiny-social/build.sh   # phases 6 and 7, from work/ckpt_phase5.pt
PHASE6_STEPS="${PHASE6_STEPS:-350}"   # "off" skips phase 6; the committed model used 350 (step schedule)
PHASE6_LR="${PHASE6_LR:-8e-4}"
PHASE6_BOOST="similarity.word:0,similarity.guess:0,letters.word:6,letters.guess:6,similarity.final.story:3,similarity.final.biography:3,similarity.final.haiku:3,synchrony.judge:2"
# Phase 7 (from phase 6) repeats the two formats still under 90 % sampled after phase 6, the haiku (fp32 85 %: two
# lines instead of three) and the biography (q4 88 %: no year), 6x each, at a low peak lr (4e-4, step schedule),
# with the letter examples x4, story and judge x2 and everything else replayed once so that nothing regresses.
PHASE7_STEPS="${PHASE7_STEPS:-200}"   # "off" skips phase 7
PHASE7_LR="${PHASE7_LR:-4e-4}"
PHASE7_BOOST="${PHASE7_BOOST:-similarity.word:0,similarity.guess:0,letters.word:4,letters.guess:4,similarity.final.story:2,similarity.final.biography:6,similarity.final.haiku:6,synchrony.judge:2}"
# The commit whose models/tiny-social/onnx/model.onnx (and test fixture, train_log.json) is the phase-4 build: the
# source of work/ckpt_phase4.pt for FROM_PHASE5=1 when the training checkpoints are gone (py/from_onnx.py).
PHASE4_COMMIT=e48a945
TOKENS="${TOKENS:-2048}"
if [ "${SMOKE:-0}" = "1" ]; then STEPS=30; PHASE2_STEPS=off; PHASE4_STEPS=off; PHASE5_STEPS=off; PHASE6_STEPS=off; PHASE7_STEPS=off; fi
export HERE SEED THREADS="${THREADS:-2}" BUDGET="${BUDGET:-1980}"
cd "$ROOT"
if [ "${SKIP_TRAIN:-0}" = "1" ]; then
  echo "== SKIP_TRAIN=1: export from the existing $WORK/ckpt.pt, tokenizer in $STAGE and logs in $WORK"
elif [ "${FROM_PHASE4:-0}" = "1" ]; then
  echo "== FROM_PHASE4=1: corpus, tokenizer and phases 1-3 as they are in $WORK; phase 4 from $WORK/ckpt_phase3.pt"
elif [ "${FROM_PHASE7:-0}" = "1" ]; then
  echo "== FROM_PHASE7=1: phase 7 only, from $WORK/ckpt_phase6.pt (corpus, letter examples, tokenizer and logs in $WORK)"
  [ "$PHASE7_STEPS" != "off" ] || { echo "FROM_PHASE7=1 needs PHASE7_STEPS (a step count, e.g. 200)"; exit 1; }
  [ -f "$WORK/ckpt_phase6.pt" ] || { echo "FROM_PHASE7=1 needs $WORK/ckpt_phase6.pt (the phase-6 checkpoint)"; exit 1; }
  PHASE5_STEPS=off; PHASE6_STEPS=off
elif [ "${FROM_PHASE6:-0}" = "1" ]; then
  echo "== FROM_PHASE6=1: phases 6 and 7, from $WORK/ckpt_phase5.pt (corpus, letter examples, tokenizer and logs in $WORK)"
  [ "$PHASE6_STEPS" != "off" ] || { echo "FROM_PHASE6=1 needs PHASE6_STEPS (a step count, e.g. 350)"; exit 1; }
  [ -f "$WORK/ckpt_phase5.pt" ] || { echo "FROM_PHASE6=1 needs $WORK/ckpt_phase5.pt (the phase-5 checkpoint)"; exit 1; }
  PHASE5_STEPS=off
elif [ "${FROM_PHASE5:-0}" = "1" ]; then
  echo "== FROM_PHASE5=1: phase 5 only, from $WORK/ckpt_phase4.pt"
  [ "$PHASE5_STEPS" != "off" ] || { echo "FROM_PHASE5=1 needs PHASE5_STEPS (a step count, or 0 for auto)"; exit 1; }
  mkdir -p "$WORK" "$STAGE"
  if [ ! -f "$WORK/corpus.jsonl" ]; then
    echo "== corpus (seed $SEED, $N_EXAMPLES examples)"
    npx tsx models/tiny-social/corpus.ts --seed "$SEED" --n "$N_EXAMPLES" --out "$WORK/corpus.jsonl"
  fi
  if [ ! -f "$STAGE/tokenizer.json" ]; then  # the committed tokenizer (phase 5 must not change it)
    git show "$PHASE4_COMMIT:models/tiny-social/tokenizer.json" > "$STAGE/tokenizer.json"
    git show "$PHASE4_COMMIT:models/tiny-social/tokenizer_config.json" > "$STAGE/tokenizer_config.json"
    git show "$PHASE4_COMMIT:models/tiny-social/special_tokens_map.json" > "$STAGE/special_tokens_map.json"
  fi
  if [ ! -f "$WORK/ckpt_phase4.pt" ]; then
    echo "== recover work/ckpt_phase4.pt from the phase-4 ONNX of $PHASE4_COMMIT"
    git show "$PHASE4_COMMIT:models/tiny-social/onnx/model.onnx" > "$WORK/phase4.onnx"
    git show "$PHASE4_COMMIT:test/fixtures/embedded/hidden_states.json" > "$WORK/phase4_hidden_states.json"
    $PY "$HERE/py/from_onnx.py" "$WORK/phase4.onnx" "$WORK/phase4_hidden_states.json" "$WORK/ckpt_phase4.pt"
  fi
  for i in 1 2 3 4; do  # the earlier phases' logs, for train_log.json
    [ -f "$WORK/train_log_phase$i.json" ] || git show "$PHASE4_COMMIT:models/tiny-social/train_log.json" \
      | $PY -c "import json, sys; json.dump(json.load(sys.stdin)['phases'][$i - 1], open(sys.argv[1], 'w'), indent=1)" \
        "$WORK/train_log_phase$i.json"
  done
else
rm -rf "$STAGE" "$WORK"/train_log_phase*.json "$WORK"/ckpt_phase3.pt "$WORK"/ckpt_phase4.pt && mkdir -p "$WORK" "$STAGE"

echo "== corpus (seed $SEED, $N_EXAMPLES examples)"
npx tsx models/tiny-social/corpus.ts --seed "$SEED" --n "$N_EXAMPLES" --out "$WORK/corpus.jsonl"

echo "== tokenizer"
$PY "$HERE/py/train_tokenizer.py" "$WORK" "$STAGE"

echo "== training, phase 1 ($STEPS steps, $TOKENS tokens per batch, lr 4e-3)"
PHASE=1 LR=4e-3 nice -n 5 $PY "$HERE/py/train.py" "$WORK" "$STAGE" "$STEPS" "$TOKENS" | tee "$WORK/train.out"
cp "$WORK/ckpt.pt" "$WORK/ckpt_phase1.pt"
if [ "$PHASE2_STEPS" != "off" ]; then
  echo "== training, phase 2 (second warm-up + cosine cycle from phase 1; $PHASE2_STEPS steps, lr 3e-3)"
  PHASE=2 LR=3e-3 INIT_CKPT="$WORK/ckpt_phase1.pt" nice -n 5 $PY "$HERE/py/train.py" "$WORK" "$STAGE" "$PHASE2_STEPS" "$TOKENS" \
    | tee "$WORK/train_phase2.out"
  cp "$WORK/ckpt.pt" "$WORK/ckpt_phase2.pt"
fi
if [ "$PHASE2_STEPS" != "off" ] && [ "$PHASE3_STEPS" != "off" ]; then
  echo "== training, phase 3 (from phase 2, word-game and judge examples repeated; $PHASE3_STEPS steps, lr 1.5e-3)"
  PHASE=3 LR=1.5e-3 INIT_CKPT="$WORK/ckpt_phase2.pt" FORMAT_BOOST="$PHASE3_BOOST" \
    nice -n 5 $PY "$HERE/py/train.py" "$WORK" "$STAGE" "$PHASE3_STEPS" "$TOKENS" | tee "$WORK/train_phase3.out"
  cp "$WORK/ckpt.pt" "$WORK/ckpt_phase3.pt"
fi
fi
if [ "${SKIP_TRAIN:-0}" != "1" ] && [ "${FROM_PHASE5:-0}" != "1" ] && [ "$PHASE4_STEPS" != "off" ] && [ -f "$WORK/ckpt_phase3.pt" ]; then
  echo "== training, phase 4 (from phase 3, the weakest formats repeated; $PHASE4_STEPS steps, lr 1e-3)"
  PHASE=4 LR=1e-3 INIT_CKPT="$WORK/ckpt_phase3.pt" FORMAT_BOOST="$PHASE4_BOOST" \
    nice -n 5 $PY "$HERE/py/train.py" "$WORK" "$STAGE" "$PHASE4_STEPS" "$TOKENS" | tee "$WORK/train_phase4.out"
  cp "$WORK/ckpt.pt" "$WORK/ckpt_phase4.pt"
fi
if [ "${SKIP_TRAIN:-0}" != "1" ] && [ "${FROM_PHASE6:-0}" != "1" ] && [ "${FROM_PHASE7:-0}" != "1" ] && [ "$PHASE5_STEPS" = "off" ]; then
  rm -f "$WORK/train_log_phase5.json"  # no stale phase-5 log in train_log.json
fi
if [ "${SKIP_TRAIN:-0}" != "1" ] && [ "${FROM_PHASE7:-0}" != "1" ] && { [ "$PHASE6_STEPS" = "off" ] || [ "$PHASE5_STEPS" = "off" ] && [ "${FROM_PHASE6:-0}" != "1" ]; }; then
  rm -f "$WORK/train_log_phase6.json"  # no stale phase-6 log in train_log.json
fi
if [ "${SKIP_TRAIN:-0}" != "1" ] && [ "$PHASE5_STEPS" != "off" ] && [ -f "$WORK/ckpt_phase4.pt" ]; then
  echo "== letter examples for phase 5 ($PHASE5_LETTERS)"
  npx tsx models/tiny-social/corpus.ts --seed "$SEED" --letters "$PHASE5_LETTERS" --out "$WORK/corpus_letters.jsonl"
  $PY - "$WORK/corpus_letters.jsonl" "$STAGE/tokenizer.json" <<'PYEOF'
import json, os, sys
sys.path.insert(0, os.environ["HERE"] + "/py")
from tok import Encoder
enc = Encoder.load(sys.argv[2])
inv = {v: k for k, v in enc.vocab.items()}
for line in open(sys.argv[1]):
    r = json.loads(line)
    letter = r["prompt"].split("starts with the letter ")[1][0]
    first = inv[enc.encode(r["completion"])[0]]
    assert first == letter, f"{r['completion']!r} starts with token {first!r}, not the letter token {letter!r}"
print("letter examples: every answer starts with the prompt's letter token")
PYEOF
  if [ "$PHASE5_STEPS" = "0" ]; then p5="auto, $PHASE5_BUDGET s, $PHASE5_SCHEDULE schedule"; else p5="$PHASE5_STEPS steps, step schedule"; fi
  echo "== training, phase 5 (from phase 4, letter examples + story/biography/haiku repeated, all else replayed; $p5, lr 1e-3)"
  PHASE=5 LR=1e-3 INIT_CKPT="$WORK/ckpt_phase4.pt" FORMAT_BOOST="$PHASE5_BOOST" EXTRA_CORPUS=corpus_letters.jsonl \
    SCHEDULE="$PHASE5_SCHEDULE" BUDGET="$PHASE5_BUDGET" \
    nice -n 19 $PY "$HERE/py/train.py" "$WORK" "$STAGE" "$PHASE5_STEPS" "$TOKENS" | tee "$WORK/train_phase5.out"
  cp "$WORK/ckpt.pt" "$WORK/ckpt_phase5.pt"
fi
if [ "${SKIP_TRAIN:-0}" != "1" ] && [ "$PHASE6_STEPS" != "off" ] && [ -f "$WORK/ckpt_phase5.pt" ] \
   && { [ "$PHASE5_STEPS" != "off" ] || [ "${FROM_PHASE6:-0}" = "1" ]; }; then
  echo "== training, phase 6 (from phase 5, letter examples x6, judge x2; $PHASE6_STEPS steps, step schedule, lr $PHASE6_LR)"
  PHASE=6 LR="$PHASE6_LR" INIT_CKPT="$WORK/ckpt_phase5.pt" FORMAT_BOOST="$PHASE6_BOOST" EXTRA_CORPUS=corpus_letters.jsonl \
    SCHEDULE=steps nice -n 19 $PY "$HERE/py/train.py" "$WORK" "$STAGE" "$PHASE6_STEPS" "$TOKENS" | tee "$WORK/train_phase6.out"
  cp "$WORK/ckpt.pt" "$WORK/ckpt_phase6.pt"
fi
# phase 7 runs after a phase 6 of this build, or alone (FROM_PHASE7=1); never from a stale phase-6 checkpoint
RUN_PHASE7=0
if [ "${SKIP_TRAIN:-0}" != "1" ] && [ "$PHASE7_STEPS" != "off" ]; then
  if [ "${FROM_PHASE7:-0}" = "1" ]; then RUN_PHASE7=1
  elif [ "$PHASE6_STEPS" != "off" ] && { [ "$PHASE5_STEPS" != "off" ] || [ "${FROM_PHASE6:-0}" = "1" ]; }; then RUN_PHASE7=1; fi
fi
if [ "${SKIP_TRAIN:-0}" != "1" ] && [ "$RUN_PHASE7" = "0" ]; then
  rm -f "$WORK/train_log_phase7.json"  # no stale phase-7 log in train_log.json
fi
if [ "$RUN_PHASE7" = "1" ] && [ -f "$WORK/ckpt_phase6.pt" ]; then
  echo "== training, phase 7 (from phase 6, haiku and biography x6; $PHASE7_STEPS steps, step schedule, lr $PHASE7_LR)"
  PHASE=7 LR="$PHASE7_LR" INIT_CKPT="$WORK/ckpt_phase6.pt" FORMAT_BOOST="$PHASE7_BOOST" EXTRA_CORPUS=corpus_letters.jsonl \
    SCHEDULE=steps nice -n 19 $PY "$HERE/py/train.py" "$WORK" "$STAGE" "$PHASE7_STEPS" "$TOKENS" | tee "$WORK/train_phase7.out"
  cp "$WORK/ckpt.pt" "$WORK/ckpt_phase7.pt"
fi
$PY - "$WORK" <<'PYEOF'
import glob, json, sys
work = sys.argv[1]
phases = [json.load(open(f)) for f in sorted(glob.glob(f"{work}/train_log_phase*.json"))]
json.dump({"phases": phases, "steps": sum(p["steps"] for p in phases),
           "train_seconds": round(sum(p["train_seconds"] for p in phases), 1),
           "final_answer_loss_ema": phases[-1]["final_answer_loss_ema"]}, open(f"{work}/train_log.json", "w"), indent=1)
PYEOF

echo "== export (onnx fp32, q4, config, fixture)"
$PY "$HERE/py/export.py" "$WORK" "$STAGE" "$WORK/hidden_states.json" > "$WORK/export.log" 2>&1 \
  || { tail -30 "$WORK/export.log"; exit 1; }
tail -1 "$WORK/export.log"

echo "== checks (onnxruntime-node and transformers.js against the PyTorch fixture)"
$PY "$HERE/py/tap_debug.py" "$STAGE" "$WORK"
npx tsx models/tiny-social/verify.ts "$WORK/hidden_states.json" "$STAGE"

echo "== install into models/tiny-social (the reference as reference.json)"
rm -rf "$HERE/onnx"
cp -r "$STAGE"/onnx "$STAGE"/*.json "$HERE"/
mkdir -p "$(dirname "$FIXTURE")" && cp "$WORK/hidden_states.json" "$FIXTURE"
cp "$WORK/train_log.json" "$HERE/train_log.json"

if [ -f "$ROOT/test/fixtures/make_tap_fixtures.py" ]; then
  echo "== tap fixtures"
  $PY "$ROOT/test/fixtures/make_tap_fixtures.py"
fi

echo "== docs blocks (docs/embedded-model.md)"
$PY "$HERE/py/doc_blocks.py" "$ROOT" || echo "(docs/embedded-model.md not updated)"

echo "== sizes"
du -b "$HERE"/config.json "$HERE"/generation_config.json "$HERE"/tokenizer.json "$HERE"/tokenizer_config.json \
  "$HERE"/special_tokens_map.json "$HERE"/onnx/*.onnx "$FIXTURE" "$HERE/train_log.json"
