#!/usr/bin/env python3
"""Checks, in the machine code of libMIOpen.so, that the forwarding set and the forwarding path
agree: every entry point of the set (forwarding_set.txt: "family entry" lines) calls its packing
helper miopen_wrapper_forward_<entry>, and nothing else reaches the forwarding skeleton — no other
exported function calls a packing helper, and only the helpers of the set call fwd::tryForward.

    check_forwarding_path.py --library libMIOpen.so --forwarding-set forwarding_set.txt
"""
import argparse
import re
import sys

import disassembly

HELPER = "miopen_wrapper_forward_"


def targets(body, slots):
    """The symbols a body calls or jumps to."""
    return {t for t in (disassembly.target(i, slots) for i in body) if t}


def base(name):
    """A compiler clone's original name (foo.isra.0, foo.part.0, foo.constprop.0 -> foo)."""
    return re.sub(r"\.(isra|part|constprop|cold|lto_priv)(\.\d+)?.*$", "", name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", required=True)
    ap.add_argument("--forwarding-set", required=True)
    a = ap.parse_args()
    forwarded = [l.split()[1] for l in open(a.forwarding_set) if l.strip()]
    bodies = disassembly.functions(a.library)
    slots = disassembly.got_slots(a.library)
    errors = []
    for entry in forwarded:
        if entry not in bodies:
            errors.append("%s: not in the library" % entry)
            continue
        if HELPER + entry not in {base(t) for t in targets(bodies[entry], slots)}:
            errors.append("%s is in the forwarding set but its stub does not call %s%s" % (entry, HELPER, entry))
    for name, body in bodies.items():
        origin = base(name)
        if "tryForward" in origin:
            continue  # the skeleton itself (and its cold parts)
        called = {base(t) for t in targets(body, slots)} - {origin}
        helpers = {t for t in called if t.startswith(HELPER)}
        if origin.startswith(HELPER):
            if origin[len(HELPER):] not in forwarded:
                errors.append("%s packs a call of an entry point outside the forwarding set" % origin)
            continue
        for h in helpers:
            if h[len(HELPER):] != origin:
                errors.append("%s calls %s" % (origin, h))
        if origin in forwarded:
            continue
        if any("tryForward" in t for t in called):
            errors.append("%s reaches the forwarding skeleton (tryForward) but is not a stub of the forwarding set"
                          % origin)
    if errors:
        for e in errors:
            print("forwarding path: " + e)
        return 1
    print("forwarding path: %d entry points forwarded, each through its own stub; nothing else reaches tryForward"
          % len(forwarded))
    return 0


if __name__ == "__main__":
    sys.exit(main())
