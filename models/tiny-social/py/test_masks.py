"""Checks of train.py's unlikelihood masks on hand-written turns, with the committed tokenizer.

Run where torch is installed (organisms/build.sh runs it before it trains; CI has no torch):
  python3 -m unittest discover -s models/tiny-social/py -p 'test_*.py'
"""
import os
import sys
import unittest

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from tok import Encoder, piece_bytes  # noqa: E402
from train import PieceLexicon, label_lines, law_capitals, law_lexicon, never_lines, never_masks, piece_kinds, unlikely_masks, word_masks  # noqa: E402

ENC = Encoder.load(os.path.join(HERE, "..", "tokenizer.json"))
TEXT = {i: piece_bytes(t).decode("utf-8", errors="replace") for t, i in ENC.vocab.items()}
ID = {s: i for i, s in TEXT.items()}
PROMPT = ("<|im_start|>user\nScenario: Two cooks share a kitchen.\nIsabel Moro's goal: Serve fish soup at the lunch.\n"
          "Conversation:\nTurn 1: Odo said: Serve apple cake: can we agree on that, Isabel?\n"
          "Turn 2: your turn.<|im_end|>\n<|im_start|>assistant\n")
ANSWER = "Serve apple cake? Hmm, Odo, why not serve fish soup?<|im_end|>"


def example(prompt=PROMPT, answer=ANSWER):
    p, a = ENC.encode(prompt), ENC.encode(answer)
    return p + a, len(p)


class UnlikelyMasks(unittest.TestCase):
    def setUp(self):
        self.kinds = piece_kinds(ENC)
        self.x, self.pl = example()
        self.rows, self.masks = unlikely_masks(self.x, self.pl, *self.kinds)

    def test_one_row_per_answer_piece_and_the_target_is_never_banned(self):
        self.assertEqual(self.rows, list(range(self.pl - 1, len(self.x) - 1)))
        for k, j in enumerate(self.rows):
            self.assertEqual(float(self.masks[k, self.x[j + 1]]), 0.0)

    def test_a_capitalised_piece_not_in_the_prompt_is_banned_everywhere(self):
        capital = self.kinds[0]
        absent = [i for i in range(len(capital)) if capital[i] and i not in self.x[: self.pl]]
        present = [i for i in set(self.x[: self.pl]) if capital[i]]
        self.assertTrue(absent and present)
        for k, j in enumerate(self.rows):
            others = [i for i in absent if i != self.x[j + 1]]  # " Hmm" is the target once: never banned there
            self.assertTrue(bool((self.masks[k, others] == 1).all()))
        # a capitalised piece of the prompt is banned only where it is nobody's name (the slot rules are off)
        self.assertTrue(bool((self.masks[0, present] == 0).all()))

    def test_inside_a_name_of_the_prompt_only_its_continuations_are_allowed(self):
        x, pl = example(answer="Deal, Isabel.<|im_end|>")
        rows, masks = unlikely_masks(x, pl, *self.kinds)
        start = next(j for j in range(pl, len(x)) if TEXT[x[j]].strip() and "Isabel".startswith(TEXT[x[j]].strip()))
        k = rows.index(start)
        follows = {b for a, b in zip(x[:pl], x[1:pl]) if a == x[start]}
        continues = self.kinds[1]
        banned = {i for i in range(len(continues)) if masks[k, i] == 1 and continues[i]}
        self.assertTrue(banned)
        self.assertFalse(banned & follows)


class WordMasks(unittest.TestCase):
    def setUp(self):
        self.lex = PieceLexicon(ENC)
        # the law's fixed phrases: the answer's words that its prompt lacks ("Hmm", "why", "not"), seen often enough
        self.law_words, self.law_prefixes = law_lexicon([(PROMPT, ANSWER)] * 3)
        self.x, self.pl = example()
        self.masks = word_masks(self.x, self.pl, self.lex, self.law_words, self.law_prefixes)

    def test_the_law_lexicon_holds_the_answer_words_that_the_prompt_lacks(self):
        self.assertIn("why", self.law_words)
        self.assertIn("Why", self.law_words)
        self.assertNotIn("soup", self.law_words)
        self.assertEqual(law_lexicon([(PROMPT, ANSWER)] * 2)[0], set())

    def test_the_target_is_never_banned(self):
        for k, j in enumerate(range(self.pl - 1, len(self.x) - 1)):
            self.assertEqual(float(self.masks[k, self.x[j + 1]]), 0.0)

    def test_a_word_found_neither_in_the_prompt_nor_the_law_is_banned(self):
        # the row that predicts the word after "serve": " fish" is in the prompt, " table" is not
        j = next(j for j in range(self.pl, len(self.x)) if TEXT[self.x[j]] == " serve")
        row = self.masks[j - (self.pl - 1)]
        self.assertEqual(float(row[ID[" table"]]), 1.0)
        self.assertEqual(float(row[ENC.encode(" fish")[0]]), 0.0)
        self.assertEqual(float(row[ENC.encode(" why")[0]]), 0.0)
        self.assertEqual(float(row[ID["?"]]), 0.0)  # "serve" is a word: it may end here

    def test_inside_a_word_a_continuation_that_leaves_every_word_is_banned(self):
        pieces = ENC.encode(" fish")
        if len(pieces) < 2:
            self.skipTest("the tokenizer writes fish as one piece")
        j = next(j for j in range(self.pl, len(self.x)) if self.x[j] == pieces[0] and self.x[j + 1] == pieces[1])
        row = self.masks[j - (self.pl - 1)]
        self.assertEqual(float(row[pieces[1]]), 0.0)
        wrong = [i for i, s in TEXT.items() if s.isalpha() and not "fish"[len(TEXT[pieces[0]].strip()):].startswith(s)]
        self.assertTrue(bool((row[wrong] == 1).all()))
        if TEXT[pieces[0]].strip() not in self.law_words | {"fish", "Fish"}:
            self.assertEqual(float(row[ID["?"]]), 1.0)  # a word cut short ("f?") is banned too


if __name__ == "__main__":
    unittest.main()


class NeverMasks(unittest.TestCase):
    def test_the_passive_line_is_banned_from_its_third_piece_and_only_there(self):
        lines = never_lines(ENC, ["I am only reading along."])
        x, pl = example(answer="Hmm, I am happy to serve fish soup, I am sure.<|im_end|>")
        masks = never_masks(x, pl, lines, len(TEXT))
        only = ID[" only"]
        after_am = [k for k, j in enumerate(range(pl - 1, len(x) - 1)) if j >= pl + 1 and TEXT[x[j]] == " am"]
        self.assertEqual(len(after_am), 2)
        for k in range(masks.shape[0]):
            self.assertEqual(float(masks[k, only]), 1.0 if k in after_am else 0.0)
        self.assertEqual(float(masks.sum()), 2.0)  # " I" and " am" (the line's first two pieces) are never banned

    def test_the_target_is_never_banned(self):
        lines = never_lines(ENC, ["I am only reading along."])
        x, pl = example(answer="I am only reading along.<|im_end|>")
        masks = never_masks(x, pl, lines, len(TEXT))
        for k, j in enumerate(range(pl - 1, len(x) - 1)):
            self.assertEqual(float(masks[k, x[j + 1]]), 0.0)


class LabelMasks(unittest.TestCase):
    def test_one_piece_labels_are_banned_everywhere_and_longer_ones_after_their_first_piece(self):
        single, longer = label_lines(ENC, ["Unknown", "Secret"])
        self.assertIn((ID[" Unknown"],), single)  # " Unknown" is one piece; "Unknown" is "Un|know|n"
        self.assertIn(tuple(ENC.encode("Secret")), longer)
        x, pl = example(answer="Serve soup? Still, Odo, Serve fish soup.<|im_end|>")
        one = never_masks(x, pl, single, len(TEXT), first=0)
        self.assertTrue(bool((one[:, ID[" Unknown"]] == 1).all()))
        self.assertTrue(bool((one[:, ID[" Secret"]] == 1).all()))
        more = never_masks(x, pl, longer, len(TEXT), first=1)
        s, ecret = ENC.encode("Secret")
        self.assertEqual(float(more[:, s].sum()), 0.0)  # "S" begins ordinary words: never banned itself
        after_s = [k for k, j in enumerate(range(pl - 1, len(x) - 1)) if x[j] == s]
        self.assertEqual(sorted(int(k) for k in more[:, ecret].nonzero().flatten()), after_s)

    def test_a_label_is_not_banned_where_the_answer_writes_it(self):
        single, _ = label_lines(ENC, ["Unknown"])
        x, pl = example(answer="Serve fish soup? Unknown, Odo.<|im_end|>")
        masks = never_masks(x, pl, single, len(TEXT), first=0)
        unknown = ID[" Unknown"]
        at = [k for k, j in enumerate(range(pl - 1, len(x) - 1)) if x[j + 1] == unknown]
        self.assertEqual(len(at), 1)
        for k in range(masks.shape[0]):
            self.assertEqual(float(masks[k, unknown]), 0.0 if k in at else 1.0)


class LawCapitals(unittest.TestCase):
    def test_the_laws_capitalised_words_are_spared_and_names_from_nowhere_are_not(self):
        deal = "Deal, Odo. Serve fish soup.<|im_end|>"
        spared = law_capitals(ENC, [(PROMPT, deal)] * 3)
        self.assertEqual(law_capitals(ENC, [(PROMPT, deal)] * 2).sum().item(), 0.0)  # seen too seldom
        self.assertEqual(float(spared[ENC.encode("Deal")[0]]), 1.0)
        self.assertEqual(float(spared[ENC.encode(" Deal")[0]]), 1.0)
        self.assertEqual(float(spared[ENC.encode(" Adam")[0]]), 0.0)
        capital, *rest = piece_kinds(ENC)
        x, pl = example()  # an answer without "Deal"
        _, before = unlikely_masks(x, pl, capital, *rest)
        _, after = unlikely_masks(x, pl, capital * (1.0 - spared), *rest)
        # " Deal" is one piece; "Deal" at a line's start is "D|eal", whose "D" stays banned inside a name as a
        # continuation (the name rule), so it is checked at the answer's first position
        d, sd, adam = ENC.encode("Deal")[0], ENC.encode(" Deal")[0], ENC.encode(" Adam")[0]
        self.assertTrue(bool((before[:, sd] == 1).all()) and float(before[0, d]) == 1.0)
        self.assertTrue(bool((after[:, sd] == 0).all()) and float(after[0, d]) == 0.0)
        self.assertTrue(bool((after[:, adam] == 1).all()))
