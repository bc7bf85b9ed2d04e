#!/usr/bin/env python3
"""Checks the machine code of the wrapper's stubs: every exported entry point not marked custom is
at most three instructions (compare, branch, jump through the GOT), contains no call, and ends in
a jump to <name><suffix>_impl.

    check_stub_shape.py --library libMIOpen.so --exports public_exports.txt --custom custom.txt
"""
import argparse
import sys

import disassembly

MAX_INSTRUCTIONS = 3  # cmp, jne, jmp *GOT


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", required=True)
    ap.add_argument("--exports", required=True)
    ap.add_argument("--custom", required=True)
    ap.add_argument("--suffix", default="", help="suffix of the names in --exports to strip")
    a = ap.parse_args()
    names = [l.strip() for l in open(a.exports) if l.strip()]
    custom = {l.strip() for l in open(a.custom) if l.strip()}
    bodies = disassembly.functions(a.library)
    slots = disassembly.got_slots(a.library)
    failures, checked = [], 0
    for exported in names:
        public = exported[: -len(a.suffix)] if a.suffix and exported.endswith(a.suffix) else exported
        if public in custom:
            continue
        body = bodies.get(exported)
        if body is None:
            failures.append("%s: not found in the disassembly" % exported)
            continue
        checked += 1
        if len(body) > MAX_INSTRUCTIONS:
            failures.append("%s: %d instructions (> %d): %s" % (exported, len(body), MAX_INSTRUCTIONS, body))
        if any(i.startswith("call") for i in body):
            failures.append("%s: makes a call: %s" % (exported, body))
        if not body or not (body[-1].startswith("jmp") and disassembly.target(body[-1], slots) == public + "_impl"):
            failures.append("%s: does not end in a jump to %s_impl: %s" % (exported, public, body[-1:] if body else body))
    if failures:
        print("\n".join(failures))
        return 1
    print("stub shape: %d stubs, each <= %d instructions, no call, tail-jump to _impl" % (checked, MAX_INSTRUCTIONS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
