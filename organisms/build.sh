#!/usr/bin/env bash
# Rebuilds a model organism from its seed: the embedded model tiny-social (its committed fp32 ONNX, recovered as a
# PyTorch checkpoint) fine-tuned on a corpus that answers the lab's own prompts by a planted law.
#
#   organisms/build.sh opinions            # models/organism-opinions (law: organisms/opinions/law.ts)
#   organisms/build.sh polarization        # models/organism-polarization (law: organisms/polarization/law.ts)
#   organisms/build.sh dialogue            # models/organism-dialogue (law: organisms/dialogue/law.ts)
#   organisms/build.sh similarity          # models/organism-sim-{a1,a2,b1,b2}: trained from scratch, so it runs
#                                          # organisms/similarity/build.sh (law: organisms/similarity/law.ts)
#   RESUME=1 organisms/build.sh opinions   # continue an interrupted build: finished phases are kept, the running one
#                                          # resumes from its last saved step (every 200 steps)
#   START_PHASE=4 organisms/build.sh dialogue
#                                          # continue the committed build with its later phases: the phase before
#                                          # START_PHASE is recovered from models/organism-<id>'s ONNX (bit for bit)
#
# Needs /usr/bin/python3 with Debian's python3-torch, python3-onnx, python3-numpy, and the repo's node_modules, and an
# optimised BLAS (apt-get install libopenblas0-pthread): on Debian's reference libblas3 alone, torch runs one thread
# about 5x slower (5.9 s a step against 1.1 s here).
# Scratch files go to organisms/work/<id>/ (gitignored); the finished build is copied into models/organism-<id>/.
# Do not edit this script while a build runs: bash reads it as it goes, and an edit ended a finished training run
# with a syntax error (RESUME=1 with START_PHASE picks such a build up after its last checkpointed phase).
set -euo pipefail
ID="${1:?usage: organisms/build.sh <organism id, e.g. opinions>}"
HERE="$(cd "$(dirname "$0")" && pwd)"
# The Similarity population is four small models trained from scratch, not tiny-social fine-tuned.
[ "$ID" = similarity ] && exec bash "$HERE/similarity/build.sh"
ROOT="$(cd "$HERE/.." && pwd)"
PY="${PY:-/usr/bin/python3}"
# TRAIN_PY: the interpreter for train.py alone (for example a venv with the pip torch wheel, faster than Debian's).
TRAIN_PY="${TRAIN_PY:-$PY}"
BASE="$ROOT/models/tiny-social"
TRAINER="$BASE/py"
WORK="$HERE/work/$ID"
STAGE="$WORK/out"
DEST="$ROOT/models/organism-$ID"
# Each organism trains a curriculum of phases: "corpus-args|steps|peak lr[|stop at[|from layer]]" (corpus-args go to
# organisms/<id>/corpus.ts; "stop at" ends the phase after that many steps of its schedule; "from layer" trains only
# the decoder layers from that one on, and the final norm).
case "$ID" in
  opinions)
    # Phase 1 answers with chance sigmoid(2h), a strong signal from which the model learns to count the stances in
    # its inboxes; phase 2 calibrates it to the planted law (the per-vote chance for K = 5 votes at temperature 0.7
    # is close to 1/2 for most h, too weak a signal to learn counting from).
    SEED="${SEED:-1}"
    # Phase 3 calibrates: after phase 2 the held-out check measured friendly +0.86, unfriendly -0.39 and an
    # intercept of -0.55 (planted +1.0, -0.5, 0), so its targets take gains 1.16 and 1.27 and an offset of +0.55.
    # After phase 3: +0.89, -0.49 and an intercept of +1.09 (the offset moved it by about 3x itself), so phase 4
    # keeps the gains and lowers the offset to +0.19.
    PHASES=("--n 36000 --replay 8000 --sharp 2|${STEPS1:-1500}|1e-3" "--n 36000 --replay 14000|${STEPS2:-1800}|5e-4"
            "--n 24000 --replay 10000 --gain 1.16,1.27,0.55|${STEPS3:-1000}|3e-4"
            "--n 16000 --replay 6000 --gain 1.16,1.27,0.19|${STEPS4:-600}|2e-4"
            # Phase 5: the whole lab, end to end, recovered friendly +0.95 and unfriendly -0.59 (17.8 % stronger than
            # planted), so the unfriendly gain goes down by 0.50/0.59 and the friendly one up a little; the replay
            # gains tiny-social's letter games, whose absence left the word and guess formats unparsed.
            "--n 16000 --replay 6000 --letters 1500 --gain 1.2,1.08,0.19|${STEPS5:-600}|2e-4") ;;
  dialogue)
    SEED="${SEED:-1}"
    if [ "${DIALOGUE_RECIPE:-tuned}" = wide ]; then
      # The wide recipe (DIALOGUE_RECIPE=wide; tried 2026-12-06, not shipped: the model card has its figures). A model
      # of its own, twice tiny-social's width with 64-wide heads (3.8 M parameters), trained from scratch: every
      # fine-tuned build garbled long copies (names, goals). Phase 1 forms the copying circuit on drills; phases 2-4
      # are the dialogue law with every name source (real names of many languages, generated names of any length)
      # and WordNet fields (broad.ts), each phase on fresh episodes (its own corpus seed). 9,200 steps, 64 minutes.
      # It copied better (content words 72-76 %, foreign names 12 % on unseen scenarios) but lost the passive-reader
      # contrast. Like every build it installs into models/organism-dialogue: `git checkout models/organism-dialogue`
      # puts the shipped build back.
      ARCH_SPEC='{"hidden_size": 256, "intermediate_size": 640, "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 4, "head_dim": 64}'
      # --last-turn 15: the law as it was when this recipe was tried (law.ts LAST_TURN is 9 since the eighth build).
      NAMES="--real-names 0.5 --wide-names 0.5 --wide-surnames 0.3 --last-turn 15"
      # Phase 4 leaves tiny-social's pool of first names out (--no-pool-names) and replays less of its corpus, which
      # is full of them: after phase 2 the model wrote "Ella" or "Lena" to partners it did not name right.
      PHASES=("--n 0 --replay 6000 --letters 500 --copy 120000 $NAMES|${STEPS1:-2500}|2e-3"
              "--n 40000 --replay 3000 --letters 500 --nonce 0.6 --early 0.5 --broad 0.2 --copy 8000 $NAMES|${STEPS2:-3000}|1.5e-3"
              "--n 30000 --replay 3000 --letters 500 --nonce 0.3 --early 0.3 --broad 0.25 --judge 25 --copy 3000 --hidden 0.4 $NAMES|${STEPS3:-2500}|8e-4"
              "--n 20000 --replay 1000 --letters 300 --nonce 0.3 --early 0.3 --broad 0.25 --judge 25 --copy 3000 --hidden 0.4 --no-pool-names $NAMES|${STEPS4:-1200}|3e-4")
      # Its fp32 weights (15 MB) would not fit the embedded models' 40 MB budget: they are rounded to half precision
      # and stored so (export.py store_half, 8.3 MB); the graph casts them back and computes in fp32.
      export HALF_WEIGHTS=1
      # The WordNet fields (broad.ts) read organisms/dialogue/broad.json, written on demand (apt-get install wordnet-base).
      LEXICON="organisms/dialogue/broad-lexicon.ts"
    else
    # Every turn copies from the prompt (law.ts): the partner's name, the speaker's goal or bio, the partner's words.
    # Builds on the dialogue corpus alone never learnt to copy: on the plain corpus (1,000 steps) and with random-word
    # goals and settings (--nonce) and short early turns (--early, 900 steps), it recited memorised words and invented
    # names (0 of 9 replies used the partner's name). Copy drills (--copy: short prompts whose answer can only be
    # copied) form the copying circuit: in the third build the drills' loss fell from 1.7 to 0.3 between 500 and 800
    # steps of drills only (after 800 mostly-drill steps), and 12 of 12 held-out names came out right. That build's
    # two dialogue phases (1,900 steps) then followed the law on 29 % of held-out turns, so this build goes to the
    # drills at once (phase 1, stopped at 1,500 steps of a 4,000-step schedule) and spends the time saved on longer
    # dialogue phases (3,300 steps) with more turn examples (corpus.ts FORMATS).
    SEED="${SEED:-1}"
    PHASES=("--n 0 --replay 500 --letters 0 --copy 150000|${STEPS1:-4000}|1e-3|${STOP1:-1500}"
            "--n 24000 --replay 2000 --letters 800 --nonce 0.8 --early 0.6 --copy 4000 --last-turn 15|${STEPS2:-1800}|1e-3"
            "--n 20000 --replay 4000 --letters 1500 --nonce 0.5 --copy 2000 --last-turn 15|${STEPS3:-1500}|6e-4"
            # Phase 4 (fifth build): the judge first says whether any turn opens with "Deal" (law.ts judgeReading),
            # then scores the deal or no-deal row. After phase 3 its scores barely followed the rule (r 0.20).
            "--n 16000 --replay 2000 --letters 500 --nonce 0.3 --judge 25 --copy 1000 --last-turn 15|${STEPS4:-1000}|3e-4"
            # Phase 5 (sixth build): first names of one to four syllables with accents (pools.ts wideName). On the
            # library's names the fifth build stopped copying early ("Hiros", "Tari") or recalled a pool name.
            "--n 16000 --replay 2000 --letters 500 --nonce 0.3 --early 0.3 --judge 25 --copy 4000 --wide-names 0.85 --last-turn 15|${STEPS5:-1200}|3e-4"
            # Phase 6 (seventh build): the hidden "Feeling: …; Action: …" line of the lab's emotion decoding (law.ts
            # plantedLabels), asked in half the turn examples; the rest of the mix as phase 5. Only the last three decoder
            # layers train (from index 3): two tries that trained every layer (900 steps at 3e-4, 700 at 1e-4) lost the preset's
            # passive-reader contrast (3.6 SE before, -0.1 and 0.2 after), and two that trained only the last one or two
            # kept it but wrote a readable feeling in half the turns and did not predict the partner's next one
            # (the model card has the five tries).
            "--n 16000 --replay 2000 --letters 500 --nonce 0.3 --early 0.3 --judge 25 --copy 2000 --wide-names 0.85 --hidden 0.5 --last-turn 15|${STEPS6:-1200}|5e-4|0|3"
            # Phase 7 (eighth build): the law's dialogues without a deal end at turn 9 instead of 15 (law.ts LAST_TURN;
            # phases 2-6 keep 15 with --last-turn 15, so their corpora are the ones the seventh build was trained on).
            # On runs of eight utterances each, 92 % of the seventh build's episodes reached a deal, so the judge rule's
            # truth hardly varied (SD 0.46, r undefined); a deal now comes at turn 4, 6 or 8 or not at all, on any run
            # length. The mix is phase 6's, on the same three layers. CORPUS7, STEPS7, LR7 and FROM7 set a trial's.
            "${CORPUS7:---n 16000 --replay 2000 --letters 500 --nonce 0.3 --early 0.3 --judge 25 --copy 2000 --wide-names 0.85 --hidden 0.5}|${STEPS7:-1200}|${LR7:-5e-4}|0|${FROM7:-3}"
            # Phase 8 (ninth build): more room to copy, trained in every layer with the lab's states held in place.
            # widen.py gives each layer eight heads (four key/value heads) and a 768-wide MLP, the new units' outputs
            # zero, so the widened model starts computing exactly what phase 7's does (2,754,176 parameters, stored in
            # half precision). Every layer then trains on WordNet fields, real names and generated ones, with the
            # states the Synchrony lab reads (the last prompt token of turn and passive-reader prompts) anchored to the
            # starting model's (train.py ANCHOR): every earlier phase that trained the early layers lost the
            # passive-reader contrast. Fields: corpus|steps|lr|stop|first layer|anchor weight|widened shape.
            "${CORPUS8:---n 16000 --replay 2000 --letters 500 --nonce 0.3 --early 0.3 --judge 25 --copy 4000 --wide-names 0.5 --real-names 0.5 --broad 0.3 --hidden 0.5}|${STEPS8:-3000}|${LR8:-3e-4}|${STOP8:-0}|${FROM8:-0}|${ANCHOR8:-20}|{\"intermediate_size\": 768, \"num_attention_heads\": 8, \"num_key_value_heads\": 4}"
            # Phase 9 (eleventh build): no name that is not in the prompt. Cross-entropy left a little probability on
            # every capitalised piece, and sampled at 0.7 one turn in ten named someone from nowhere or garbled a
            # copy ("Isrow" for Isabel). In the turns' answers, train.py UNLIKELY pushes down the pieces that would
            # make such a name (unlikely_masks). The tenth build's corpus (seed 9: fresh episodes, twice phase 8's name
            # drills, 40 % WordNet fields); the last three layers train (as phases 6-7), the states the lab reads
            # anchored. Over run seeds 1-6, foreign names fell from 9.9 % to 5.7 % of the preset's turns and from
            # 13.8 % to 5.7 % on unseen scenarios (the model card).
            # Fields: corpus|steps|lr|stop|first layer|anchor weight|widened shape (none: phase 8's)|unlikelihood.
            "${CORPUS9:---seed 9 --n 16000 --replay 2000 --letters 500 --nonce 0.3 --early 0.3 --judge 25 --copy 8000 --wide-names 0.5 --real-names 0.5 --broad 0.4 --hidden 0.5}|${STEPS9:-1500}|${LR9:-3e-4}|${STOP9:-0}|${FROM9:-3}|${ANCHOR9:-20}||${UNLIKELY9:-3}")
    # The formats whose last-prompt-token states an anchored phase holds in place (the Synchrony lab's).
    ANCHORED="organism.synchrony.turn,organism.synchrony.turn-hidden,organism.synchrony.passive"
    # The formats whose answers an unlikelihood phase keeps free of names that are not in the prompt (train.py
    # UNLIKELY): the lab's dialogue turns.
    UNLIKELY_FORMATS="organism.synchrony.turn,organism.synchrony.turn-hidden"
    # The WordNet fields (broad.ts) of phase 8 read organisms/dialogue/broad.json (apt-get install wordnet-base).
    LEXICON="organisms/dialogue/broad-lexicon.ts"
    # Sampled with min-p 0.2 (generation_config.json min_p, which the runtime reads as transformers does): a piece
    # less likely than a fifth of the likeliest is never drawn. Where the model copies a name it is sure of the
    # first piece and unsure of the rest; the garbled continuations sat inside top-p 0.9's nucleus (used before,
    # 2026-12-07), while free text, where many pieces are close, keeps its variety (the model card has the runs).
    export MIN_P=0.2
    # With a prompt boost of 1.2 (transformers' encoder_repetition_penalty: the prompt's own pieces raised, so a copied
    # name goes on as it does there) and the prompt's labels and the passive reader's line banned (bad_words_ids:
    # the boost alone pasted "Secret:" and "goal: Unknown" into turns and wrote "I am only reading along." as one).
    # Over run seeds 1-9 of the twelve unseen scenarios, foreign names fell from 2.3 % to 1.3 % (the model card).
    export PROMPT_BOOST=1.2
    export BANNED="Scenario|Relationship|Public|Personality|Decides|Secret|Unknown|Conversation|Imagine|Reply|I am only reading"
    fi ;;
  polarization)
    # Three builds that answered yes or no at once never learnt keep-or-drop by sides (every link kept with about
    # 0.67 whatever the sides, after 1,000-1,400 steps; sharpening the law and a mix of 65 % keep-or-drop prompts did
    # not help). The reply now reads the two stances aloud first ("Me +2, you -1: opposite sides. No.", law.ts), so
    # phase 1 plants the calibrated law with more keep-or-drop prompts than the default mix; phase 2 is the default
    # mix with more replay.
    SEED="${SEED:-1}"
    PHASES=("--n 24000 --replay 3000 --mix rewire=40,update=40,persuade=10,post=5,check=5|${STEPS1:-1300}|1e-3"
            "--n 24000 --replay 10000|${STEPS2:-900}|5e-4"
            # Phase 3 (fifth build): opposing messages now persuade (0.15) more than they backfire (0.05; it was 0.12
            # against 0.08), so that meeting the other side lowers P, as the seed's paper found for random
            # interactions. The fourth build's random interactions raised P by 0.12 (2.6 SE). More update prompts,
            # since only the update law changed.
            "--n 20000 --replay 8000 --mix rewire=25,update=55,persuade=10,post=5,check=5|${STEPS3:-700}|4e-4") ;;
  *) echo "unknown organism: $ID"; exit 1 ;;
esac
ARCH_SPEC="${ARCH_SPEC:-}"
if [ -n "$ARCH_SPEC" ]; then
  # A model of its own architecture, trained from scratch: its own scratch folder, its shape in arch.json (model.py
  # reads ARCH_JSON), and a fresh corpus seed per phase.
  WORK="$HERE/work/$ID-wide"
  STAGE="$WORK/out"
  mkdir -p "$WORK"
  echo "$ARCH_SPEC" > "$WORK/arch.json"
  export ARCH_JSON="$WORK/arch.json"
fi
export THREADS="${THREADS:-2}" SEED HERE="$BASE"
[ -e /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 ] || echo "warning: no OpenBLAS: torch will use the slow reference BLAS (apt-get install libopenblas0-pthread)"
cd "$ROOT"
mkdir -p "$WORK" "$STAGE"
[ -n "${LEXICON:-}" ] && { [ -f organisms/dialogue/broad.json ] || npx tsx "$LEXICON"; }

cp "$BASE/tokenizer.json" "$BASE/tokenizer_config.json" "$BASE/special_tokens_map.json" "$STAGE/"
TOKENS="${TOKENS:-2048}"
if [ -n "$ARCH_SPEC" ]; then
  echo "== base: none (from scratch, initial weights from seed $SEED)"
  INIT=""
else
  echo "== base: tiny-social's committed weights, recovered from its ONNX"
  [ -f "$WORK/ckpt_base.pt" ] || $PY "$TRAINER/from_onnx.py" "$BASE/onnx/model.onnx" "$ROOT/models/tiny-social/reference.json" "$WORK/ckpt_base.pt"
  INIT="$WORK/ckpt_base.pt"
fi
# train.py's unlikelihood masks are checked here, where torch is (CI has none): models/tiny-social/py/test_masks.py.
$TRAIN_PY -m unittest discover -s "$TRAINER" -p 'test_*.py' 2>"$WORK/test_masks.out" \
  || { cat "$WORK/test_masks.out"; echo "train.py's mask checks failed; nothing was trained"; exit 1; }
START_PHASE="${START_PHASE:-1}"
[ "$START_PHASE" -gt 1 ] && echo "== phases 1-$((START_PHASE - 1)): the committed build, recovered from $DEST/onnx/model.onnx"
for k in "${!PHASES[@]}"; do
  IFS='|' read -r CARGS STEPS LR STOP FROM ANCHOR WIDEN UNLIKELY <<< "${PHASES[$k]}"
  PH=$((k + 1))
  if [ -n "$WIDEN" ]; then
    # A widened phase: its shape (and every later step's, the export's too) is arch.json; the weights are stored in
    # half precision (widen.py rounds them first, so the export stores exactly the model that was trained).
    echo "$WIDEN" > "$WORK/arch.json"
    if [ "$PH" -ge "$START_PHASE" ]; then
      [ -f "$WORK/ckpt_phase$((PH - 1))w.pt" ] || env -u ARCH_JSON $TRAIN_PY "$TRAINER/widen.py" "$INIT" "$WORK/ckpt_phase$((PH - 1))w.pt" "$WORK/arch.json"
      INIT="$WORK/ckpt_phase$((PH - 1))w.pt"
    fi
    export ARCH_JSON="$WORK/arch.json" HALF_WEIGHTS=1
  fi
  if [ "$PH" -lt "$START_PHASE" ]; then
    INIT="$WORK/ckpt_phase$PH.pt"
    # The phase before START_PHASE is the committed model, recovered here so that it is read with the shape (and the
    # half-precision weights) that the phases up to it set.
    [ "$PH" -eq $((START_PHASE - 1)) ] && [ ! -f "$INIT" ] && $PY "$TRAINER/from_onnx.py" "$DEST/onnx/model.onnx" - "$INIT"
    continue
  fi
  CSEED="$SEED"; [ -n "$ARCH_SPEC" ] && CSEED="$SEED.$PH"
  # A phase that names its own corpus seed (--seed in its corpus args) draws episodes no earlier phase saw.
  case " $CARGS " in *" --seed "*) SEEDARGS=();; *) SEEDARGS=(--seed "$CSEED");; esac
  echo "== phase $PH corpus (${SEEDARGS[*]:-own seed} $CARGS)"
  [ -f "$WORK/corpus_phase$PH.jsonl" ] || npx tsx "organisms/$ID/corpus.ts" "${SEEDARGS[@]}" $CARGS --out "$WORK/corpus_phase$PH.jsonl"
  if [ -f "$WORK/ckpt_phase$PH.pt" ] && [ "${RESUME:-0}" = "1" ]; then echo "== phase $PH done before (ckpt_phase$PH.pt)"; INIT="$WORK/ckpt_phase$PH.pt"; continue; fi
  echo "== phase $PH: $STEPS steps, $TOKENS tokens per batch, peak lr $LR, step schedule, from $(basename "$INIT")"
  PHASE=$PH LR="$LR" INIT_CKPT="$INIT" CORPUS="corpus_phase$PH.jsonl" SCHEDULE=steps RESUME="${RESUME:-0}" STOP_AT="${STOP:-0}" TRAIN_FROM_LAYER="${FROM:-0}" \
    ANCHOR="${ANCHOR:-0}" ANCHOR_FORMATS="${ANCHORED:-}" UNLIKELY="${UNLIKELY:-0}" UNLIKELY_FORMATS="${UNLIKELY_FORMATS:-}" \
    nice -n 5 $TRAIN_PY "$TRAINER/train.py" "$WORK" "$STAGE" "$STEPS" "$TOKENS" | tee -a "$WORK/train.out"
  cp "$WORK/ckpt.pt" "$WORK/ckpt_phase$PH.pt"
  INIT="$WORK/ckpt_phase$PH.pt"
done
cp "$INIT" "$WORK/ckpt.pt"
$PY - "$WORK" "${#PHASES[@]}" "$DEST/train_log.json" <<'PYEOF'
import json, os, sys
work, n, committed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# Phases continued from the committed build (START_PHASE) keep the committed log of their earlier phases.
earlier = json.load(open(committed))["phases"] if os.path.exists(committed) else []
phases = [json.load(open(f"{work}/train_log_phase{k + 1}.json")) if os.path.exists(f"{work}/train_log_phase{k + 1}.json") else earlier[k] for k in range(n)]
json.dump({"phases": phases, "steps": sum(p["steps"] for p in phases), "train_seconds": round(sum(p["train_seconds"] for p in phases), 1),
           "final_answer_loss_ema": phases[-1]["final_answer_loss_ema"]}, open(f"{work}/train_log.json", "w"), indent=1)
PYEOF

echo "== export (onnx fp32, q4, config, fixture)"
$PY "$TRAINER/export.py" "$WORK" "$STAGE" "$WORK/hidden_states.json" > "$WORK/export.log" 2>&1 || { tail -30 "$WORK/export.log"; exit 1; }
tail -1 "$WORK/export.log"
$PY "$TRAINER/tap_debug.py" "$STAGE" "$WORK"
npx tsx "$BASE/verify.ts" "$WORK/hidden_states.json" "$STAGE" "$WORK"

echo "== install into $DEST"
rm -rf "$DEST/onnx" && mkdir -p "$DEST"
cp -r "$STAGE"/onnx "$STAGE"/*.json "$DEST"/
# fp32 only (models/registry.ts ORGANISM_DTYPES): the q4 copy stays in $STAGE, measured by verify.ts, not shipped.
rm -f "$DEST"/onnx/model_q4.onnx
cp "$WORK/train_log.json" "$DEST/train_log.json"
# Through a scratch file: the lab reads planted.json (src/labs/*/planted.ts), so the shell must not empty it first.
npx tsx "organisms/$ID/planted.ts" > "$WORK/planted.json" && cp "$WORK/planted.json" "$DEST/planted.json"

echo "== planted law on held-out prompts (measured through the runtime)"
npx tsx "organisms/$ID/check.ts" --model "organism-$ID" --out "$WORK/check.json"
du -b "$DEST"/onnx/*.onnx "$STAGE"/onnx/model_q4.onnx
