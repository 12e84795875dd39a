"""Writes organisms/dialogue/real-names.json: the first names and surnames of Faker's Latin-script locales (the
`faker` package from the local pip index; its name lists are its providers' data), for the dialogue corpus's
--real-names share. Names as people in the lab's scenario library have them (real, from many languages), so that
the model learns to copy a name whatever it looks like; the library's own names are removed when the corpus is
written (corpus.ts), so they stay held out.

    python3 -m pip install faker && python3 organisms/dialogue/real-names.py
"""
import json
import re
from pathlib import Path

from faker import Faker

LOCALES = ["en_US", "en_GB", "en_IN", "en_NG", "es_ES", "es_MX", "de_DE", "fr_FR", "it_IT", "pl_PL", "tr_TR",
           "pt_BR", "nl_NL", "sv_SE", "da_DK", "no_NO", "fi_FI", "ro_RO", "cs_CZ", "hu_HU", "id_ID", "yo_NG",
           "ig_NG", "zu_ZA", "tw_GH", "sw", "hr_HR", "sk_SK", "sl_SI", "lt_LT", "lv_LV", "et_EE", "vi_VN", "az_AZ"]
# One word, Latin letters (accents allowed), capitalised, 2-14 characters.
NAME = re.compile(r"^[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-öø-ÿā-ž]{1,13}$")


def names(provider, attrs):
    out = set()
    for a in attrs:
        v = getattr(provider, a, None)
        if isinstance(v, dict):
            v = list(v.keys())
        for n in v or []:
            if isinstance(n, str) and NAME.match(n):
                out.add(n)
    return out


first, last = set(), set()
for loc in LOCALES:
    p = Faker(loc).factories[0].provider("faker.providers.person")
    first |= names(p, ["first_names", "first_names_male", "first_names_female"])
    last |= names(p, ["last_names", "last_names_male", "last_names_female"])
out = Path(__file__).with_name("real-names.json")
out.write_text(json.dumps({"source": "faker " + __import__("faker").VERSION + ": " + ", ".join(LOCALES),
                           "first": sorted(first), "last": sorted(last)}, ensure_ascii=False, indent=0) + "\n")
print(f"{len(first)} first names, {len(last)} surnames -> {out}")
