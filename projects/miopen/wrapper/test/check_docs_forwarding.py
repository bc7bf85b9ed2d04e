#!/usr/bin/env python3
"""Checks that the documentation states the forwarding set the generator emitted from
generator/policy.txt (forwarding_set.txt: "family entry" lines): every "N entry points in F
families" phrase of the given pages has the set's counts (the banner prints the same N), the
coverage page's table has one row per family, in order, "| family (count) |".

    check_docs_forwarding.py --forwarding-set forwarding_set.txt --coverage docs/forwarding-coverage.md
                             --page docs/wrapper.md --page README.md
"""
import argparse
import re
import sys

WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12}


def number(text):
    return int(text) if text.isdigit() else WORDS.get(text.lower(), -1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--forwarding-set", required=True)
    ap.add_argument("--coverage", required=True)
    ap.add_argument("--page", action="append", default=[])
    a = ap.parse_args()
    rows = [l.split() for l in open(a.forwarding_set) if l.strip()]
    families = []
    for family, _ in rows:
        if not families or families[-1] != family:
            families.append(family)
    n, f = len(rows), len(families)
    errors = []
    phrase = re.compile(r"(\d+|[A-Za-z]+)\**\s+entry points\**,?\s+in\s+(\d+|[A-Za-z]+)\s+(?:op\s+)?families")
    for page in [a.coverage] + a.page:
        text = open(page).read()
        found = phrase.findall(text)
        if not found:
            errors.append("%s does not state the forwarding set's size (\"%d entry points in %d families\")" % (page, n, f))
        for count, fams in found:
            if number(count) != n or number(fams) != f:
                errors.append("%s says \"%s entry points in %s families\"; the forwarding set has %d in %d"
                              % (page, count, fams, n, f))
    coverage = open(a.coverage).read()
    table = re.findall(r"^\|\s*([a-z_]+)\s*\((\d+)\)\s*\|", coverage, re.M)
    expected = [(fam, sum(1 for r in rows if r[0] == fam)) for fam in families]
    if [(t, int(c)) for t, c in table] != expected:
        errors.append("%s: the family table %s differs from the forwarding set %s" % (a.coverage, table, expected))
    if errors:
        for e in errors:
            print("docs: " + e)
        return 1
    print("docs: %d entry points in %d families, as the forwarding set" % (n, f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
