#!/usr/bin/env python3
"""Generates the MIOpen Public wrapper from miopen.h (RFC 4.3), with a real C++ parser (libclang).

    miopen_wrapper_gen.py --header miopen.h --output-dir DIR [--include-dir D ...]
                          [--policy policy.txt] [--stand-ins]

Writes into DIR:
  miopen/miopen_impl.h   extern "C" declarations of every miopenFoo_impl (Private's entry points),
                         the same signatures as the public declarations (default arguments dropped)
  wrapper_stubs_x86_64.S one stub per exported entry point not marked custom in the policy:
                         tests one global word; zero -> tail-jumps to miopenFoo_impl; non-zero ->
                         tail-jumps to an out-of-line slow path that traces and then calls _impl
  wrapper_slow_paths.cpp the slow paths, and static_asserts that each stub's signature equals
                         the public declaration in miopen.h (a drift is a compile error)
  public_exports.txt     the exported names of libMIOpen.so (header functions + policy extras)
  private_exports.txt    the exported names of libMIOpen_private.so (each name + "_impl")
  custom_entries.txt     the entry points whose stub is hand-written (wrapper-side state), the
                         wrapper-only ones included
  wrapper_only.txt       the entry points Public implements itself (no _impl twin in Private)
  libMIOpen.map, libMIOpen_private.map   linker version scripts (exports only those names)
  signatures.txt         one line per entry point: return|name|type name|type name|... (tests)
  forwarding_set.hpp     the forwarding set (policy "family" and "forward" lines): EntryId, the
                         entry names and the op families, as constexpr tables (routing.cpp)
  forwarding_set.txt     the same, one "family entry" line per forwarded entry point (tests, docs)
  forwarding_stubs.cpp   the stub of every forwarded entry point: route word zero -> _impl; else
                         a hidden out-of-line miopen_wrapper_forward_<name> packs the family's call
                         record and calls fwd::tryForward, and _impl serves what it leaves

Run by CMake at build time; nothing it writes is committed. It is a python3 script on Debian's
python3-clang-14, so CMake calls /usr/bin/python3 (a pyenv python3 cannot see Debian packages).
"""
import argparse
import os
import sys
import tempfile

try:
    import clang.cindex as ci
except ImportError:  # pragma: no cover - environment problem, reported clearly
    sys.exit("miopen_wrapper_gen: python3-clang-14 is required (run with /usr/bin/python3)")


def configure_libclang():
    if ci.Config.loaded:
        return
    for candidate in ("/usr/lib/llvm-14/lib/libclang.so.1", "/usr/lib/x86_64-linux-gnu/libclang-14.so.1"):
        if os.path.exists(candidate):
            ci.Config.set_library_file(candidate)
            return


STAND_INS = {
    # Minimal stand-ins so the complete upstream header parses on a machine without ROCm.
    "miopen/config.h": "#define MIOPEN_BACKEND_HIP 1\n#define MIOPEN_BACKEND_OPENCL 0\n",
    "miopen/export.h": '#define MIOPEN_EXPORT __attribute__((visibility("default")))\n',
    "hip/hip_runtime_api.h": "#include <stdint.h>\ntypedef struct ihipStream_t* hipStream_t;\n",
}


class Entry:
    def __init__(self, name, result, params, has_defaults, enum_params=()):
        self.name = name
        self.result = result
        self.params = params  # [(type spelling, name)]
        self.has_defaults = has_defaults
        self.enum_params = set(enum_params)  # names of the parameters of enumeration type

    def signature_line(self):
        return "|".join([self.result, self.name] + ["%s %s" % p for p in self.params])


def param_decl(type_spelling, name):
    """A declaration of `name` with type `type_spelling` (types arrive as typedef names, so
    function pointers and arrays are already named; pointers to them are rare but handled)."""
    if "(*)" in type_spelling:
        return type_spelling.replace("(*)", "(*%s)" % name, 1)
    return "%s %s" % (type_spelling, name)


def parse(header, include_dirs, stand_ins):
    configure_libclang()
    args = ["-x", "c++", "-std=c++17", "-DMIOPEN_BETA_API=1"]
    tmp = None
    for d in include_dirs:
        args.append("-I" + d)
    if stand_ins:
        tmp = tempfile.TemporaryDirectory(prefix="miopen-gen-")
        for rel, text in STAND_INS.items():
            path = os.path.join(tmp.name, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        args.append("-idirafter" + tmp.name)
    index = ci.Index.create()
    tu = index.parse(header, args=args)
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        for d in errors:
            sys.stderr.write("miopen_wrapper_gen: %s\n" % d)
        sys.exit("miopen_wrapper_gen: %s does not parse" % header)
    header_real = os.path.realpath(header)
    entries = []
    seen = set()

    def visit(cursor):
        for c in cursor.get_children():
            if c.kind in (ci.CursorKind.LINKAGE_SPEC, ci.CursorKind.UNEXPOSED_DECL):
                visit(c)
                continue
            if c.kind != ci.CursorKind.FUNCTION_DECL:
                continue
            if c.location.file is None or os.path.realpath(c.location.file.name) != header_real:
                continue
            exported = any(ch.kind == ci.CursorKind.VISIBILITY_ATTR for ch in c.get_children())
            if not exported or not c.spelling.startswith("miopen"):
                continue
            if c.spelling in seen:
                continue
            seen.add(c.spelling)
            params = []
            enums = []
            has_defaults = False
            for i, a in enumerate(c.get_arguments()):
                params.append((a.type.spelling, a.spelling or "arg%d" % i))
                if a.type.get_canonical().kind == ci.TypeKind.ENUM:
                    enums.append(params[-1][1])
                if any(t.spelling == "=" for t in a.get_tokens()):
                    has_defaults = True
            entries.append(Entry(c.spelling, c.result_type.spelling, params, has_defaults, enums))

    visit(tu.cursor)
    if tmp is not None:
        tmp.cleanup()
    return entries


class Family:
    """An op family of the forwarding set: its name (what MIOPEN_DISABLE_HIPDNN_FOR accepts for
    all its members), the C++ call record its stubs pack, and its entry points in order, each with
    its packing: [(field, value)] where value is a parameter name or a C++ expression."""

    def __init__(self, name, record):
        self.name = name
        self.record = record
        self.members = []  # [(entry name, [(field, value)])]


def read_policy(path):
    """policy.txt, one directive a line ('#' starts a comment):
      custom <name>         the stub is hand-written (the wrapper keeps state for the entry point)
      wrapper_only <name>   declared in miopen.h, implemented by Public alone: no _impl twin
      extra <return>|<name>|<type name>...   exported by both libraries, not declared in miopen.h
      family <name> <CallRecord>   starts an op family of the forwarding set (RFC 4.4)
      forward <name> <field>[=<value>] ...   an entry point of the last family: its stub is
        generated and packs the call record, `field` from the parameter of that name, `field=value`
        from parameter `value` or, when no parameter has that name, the C++ expression `value`
        (no spaces). Enumeration parameters are passed as their raw bits (an int)."""
    custom, extras, wrapper_only, families = [], [], [], []
    if not path:
        return custom, extras, wrapper_only, families
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            kind, _, rest = line.partition(" ")
            rest = rest.strip()
            if kind == "custom":
                custom.append(rest)
            elif kind == "wrapper_only":
                wrapper_only.append(rest)
            elif kind == "extra":
                parts = [p.strip() for p in rest.split("|")]
                params = []
                for p in parts[2:]:
                    t, _, n = p.rpartition(" ")
                    params.append((t.strip(), n.strip()))
                extras.append(Entry(parts[1], parts[0], params, False))
            elif kind == "family":
                words = rest.split()
                if len(words) != 2:
                    sys.exit("miopen_wrapper_gen: %s:%d: 'family <name> <CallRecord>' expected" % (path, lineno))
                families.append(Family(words[0], words[1]))
            elif kind == "forward":
                if not families:
                    sys.exit("miopen_wrapper_gen: %s:%d: 'forward' before any 'family'" % (path, lineno))
                words = rest.split()
                fields = []
                for w in words[1:]:
                    field, eq, value = w.partition("=")
                    fields.append((field, value if eq else field))
                families[-1].members.append((words[0], fields))
            else:
                sys.exit("miopen_wrapper_gen: %s:%d: unknown policy line '%s'" % (path, lineno, line))
    return custom, extras, wrapper_only, families


def check_families(families, entries, custom, wrapper_only):
    """The forwarding set is consistent: each forwarded entry point is declared in miopen.h, returns
    a status, appears once, and its stub is not also hand-written; family names are unique."""
    by_name = {e.name: e for e in entries}
    seen, errors = set(), []
    names = [f.name for f in families]
    for f in families:
        if names.count(f.name) > 1:
            errors.append("family %s declared twice" % f.name)
        if not f.members:
            errors.append("family %s has no entry point" % f.name)
        for name, fields in f.members:
            if name in seen:
                errors.append("%s is forwarded twice" % name)
            seen.add(name)
            e = by_name.get(name)
            if e is None:
                errors.append("%s (family %s) is not declared in miopen.h" % (name, f.name))
                continue
            if e.result != "miopenStatus_t":
                errors.append("%s (family %s) does not return miopenStatus_t" % (name, f.name))
            if name in custom or name in wrapper_only:
                errors.append("%s is both forwarded and hand-written (custom/wrapper_only)" % name)
            params = {n for _, n in e.params}
            for field, value in fields:
                if field == value and value not in params:
                    errors.append("%s: no parameter named %s" % (name, field))
    if errors:
        sys.exit("miopen_wrapper_gen: policy: " + "; ".join(errors))


def forwarding_outputs(families, entries):
    """forwarding_set.hpp, forwarding_set.txt and forwarding_stubs.cpp (see the module docstring)."""
    by_name = {e.name: e for e in entries}
    forwarded = [(f, name, fields) for f in families for name, fields in f.members]
    hpp = [
        "// Generated by miopen_wrapper_gen.py from policy.txt: do not edit.",
        "// The forwarding set of MIOpen Public (RFC 4.4): its entry points, in order, and its op families.",
        "#pragma once",
        "",
        "#include <array>",
        "#include <string_view>",
        "",
        "namespace miopen {",
        "namespace wrapper {",
        "",
        "// An entry point of the forwarding set; its value indexes kForwardedEntries.",
        "enum class EntryId : int",
        "{",
    ]
    hpp += ["    %s = %d," % (name, i) for i, (_, name, _) in enumerate(forwarded)]
    hpp += [
        "};",
        "",
        "inline constexpr std::size_t kForwardedEntryCount = %d;" % len(forwarded),
        "inline constexpr std::array<std::string_view, kForwardedEntryCount> kForwardedEntries = {",
    ]
    hpp += ['    "%s",' % name for _, name, _ in forwarded]
    hpp += [
        "};",
        "",
        "// An op family: its name and its members, kForwardedEntries[first, first + count).",
        "struct FamilyRow",
        "{",
        "    std::string_view name;",
        "    std::size_t first;",
        "    std::size_t count;",
        "};",
        "inline constexpr std::array<FamilyRow, %d> kFamilies = {{" % len(families),
    ]
    first = 0
    for f in families:
        hpp.append('    {"%s", %d, %d},' % (f.name, first, len(f.members)))
        first += len(f.members)
    hpp += [
        "}};",
        "",
        "inline constexpr std::string_view entryName(EntryId id) { return kForwardedEntries[static_cast<std::size_t>(id)]; }",
        "",
        "} // namespace wrapper",
        "} // namespace miopen",
        "",
    ]
    txt = "".join("%s %s\n" % (f.name, name) for f, name, _ in forwarded)

    cpp = [
        "// Generated by miopen_wrapper_gen.py from miopen.h and policy.txt: do not edit.",
        "// The stubs of the forwarding set. With the route word zero each is a plain call of its _impl;",
        "// otherwise its out-of-line miopen_wrapper_forward_<name> packs the family's call record and",
        "// asks fwd::tryForward (forwarding_skeleton.hpp), and the _impl serves every call it leaves.",
        "#include <miopen/miopen.h>",
        "#include <miopen/miopen_impl.h>",
        "",
        '#include "forwarding.hpp"',
        '#include "wrapper_runtime.hpp"',
    ]
    for f, name, fields in forwarded:
        e = by_name[name]
        params = ", ".join(param_decl(t, n) for t, n in e.params)
        args = ", ".join(n for _, n in e.params)
        pnames = {n for _, n in e.params}
        helper = "miopen_wrapper_forward_%s" % name
        cpp += [
            "",
            'extern "C" __attribute__((visibility("hidden"), noinline)) bool %s(%s, miopenStatus_t* status)' % (helper, params),
            "{",
            "    using namespace miopen::wrapper::fwd; // the call records and their enumerations",
            "    %s c;" % f.record,
            "    c.id = miopen::wrapper::EntryId::%s;" % name,
        ]
        for field, value in fields:
            if value in pnames:
                value = "miopen::wrapper::rawEnum(%s)" % value if value in e.enum_params else value
            cpp.append("    c.%s = %s;" % (field, value))
        cpp += [
            "    return tryForward(c, status);",
            "}",
            "",
            'extern "C" miopenStatus_t %s(%s)' % (name, params),
            "{",
            "    if(miopen::wrapper::routeWordSet())",
            "    {",
            "        miopenStatus_t status = miopenStatusSuccess;",
            "        if(%s(%s, &status))" % (helper, args),
            "            return status;",
            "    }",
            "    return %s_impl(%s);" % (name, args),
            "}",
        ]
    cpp.append("")
    return "\n".join(hpp), txt, "\n".join(cpp)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # Rewrite only on change, so dependent targets do not rebuild needlessly.
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


def generate(entries, extras, custom, out, wrapper_only=(), families=()):
    names = [e.name for e in entries]
    check_families(families, entries, custom, wrapper_only)
    forwarded = [name for f in families for name, _ in f.members]
    unknown_custom = [c for c in custom if c not in names and c not in [x.name for x in extras]]
    if unknown_custom:
        sys.exit("miopen_wrapper_gen: policy marks unknown entry points custom: %s" % ", ".join(unknown_custom))
    unknown_only = [c for c in wrapper_only if c not in names]
    if unknown_only:
        sys.exit("miopen_wrapper_gen: policy marks unknown entry points wrapper_only: %s" % ", ".join(unknown_only))
    both = [c for c in wrapper_only if c in custom]
    if both:
        sys.exit("miopen_wrapper_gen: policy marks entry points both custom and wrapper_only: %s" % ", ".join(both))
    # Wrapper-only entry points: exported by Public with a hand-written body, nothing in Private.
    public_entries = entries + extras
    all_entries = [e for e in public_entries if e.name not in wrapper_only]
    # Every stub not generated in assembly: hand-written (custom, wrapper-only) or forwarded.
    custom = list(custom) + list(wrapper_only) + forwarded

    impl = [
        "/* Generated by miopen_wrapper_gen.py from miopen.h: do not edit. */",
        "/* The entry points of libMIOpen_private.so: every public miopenFoo as miopenFoo_impl, same",
        "   signature. Private use only (the MIOpen provider plugin, the public wrapper). */",
        "#ifndef MIOPEN_GUARD_MIOPEN_IMPL_H_",
        "#define MIOPEN_GUARD_MIOPEN_IMPL_H_",
        "",
        "#include <miopen/miopen.h>",
        "",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "",
        "#ifndef MIOPEN_IMPL_EXPORT",
        '#define MIOPEN_IMPL_EXPORT __attribute__((visibility("default")))',
        "#endif",
        "",
    ]
    for e in all_entries:
        params = ", ".join(param_decl(t, n) for t, n in e.params) or "void"
        impl.append("MIOPEN_IMPL_EXPORT %s %s_impl(%s);" % (e.result, e.name, params))
    impl += ["", "#ifdef __cplusplus", "}", "#endif", "", "#endif", ""]
    write(os.path.join(out, "miopen", "miopen_impl.h"), "\n".join(impl))

    # The stubs, in assembly (x86-64 SysV): the only way to guarantee "test one word, tail-jump"
    # for every signature — a C++ stub of a function with stack-passed arguments makes GCC copy
    # those arguments before its sibling call. Signatures are checked in the C++ file below. The
    # tail jump goes through the _impl's GOT slot (bound at load) rather than its PLT entry, which
    # would add a jump of its own: three instructions per hop.
    asm = [
        "# Generated by miopen_wrapper_gen.py from miopen.h: do not edit.",
        "# Each stub: if the route word is zero, tail-jump to miopenFoo_impl in libMIOpen_private.so;",
        "# otherwise tail-jump to the out-of-line slow path (same arguments, untouched).",
        "        .text",
    ]
    slow = [
        "// Generated by miopen_wrapper_gen.py from miopen.h: do not edit.",
        "// The out-of-line slow paths of the assembly stubs (banner, warnings, routing trace, the",
        "// version-skew refusal, then the private implementation), and a compile-time check that every",
        "// stub's public declaration in miopen.h has exactly the signature the stubs were generated from.",
        "#include <miopen/miopen.h>",
        "#include <miopen/miopen_impl.h>",
        '#include "wrapper_runtime.hpp"',
        "",
        "#include <type_traits>",
        "",
    ]
    for e in extras:
        params = ", ".join(param_decl(t, n) for t, n in e.params)
        slow.append('extern "C" %s %s(%s);' % (e.result, e.name, params))
    for e in all_entries:
        if e.name in custom:
            continue
        params = ", ".join(param_decl(t, n) for t, n in e.params)
        types = ", ".join(t for t, _ in e.params)
        args = ", ".join(n for _, n in e.params)
        slow += [
            "",
            "static_assert(std::is_same<decltype(&::%s), %s (*)(%s)>::value," % (e.name, e.result, types),
            '              "%s: miopen.h and the generated stub disagree");' % e.name,
            'extern "C" __attribute__((visibility("hidden"), noinline)) %s miopen_wrapper_slow_%s(%s)' % (e.result, e.name, params),
            "{",
            ('    if(miopen::wrapper::slowPath("%s"))\n        return miopenStatusVersionMismatch;' % e.name
             if e.result == "miopenStatus_t" else '    (void)miopen::wrapper::slowPath("%s");' % e.name),
            "    return %s_impl(%s);" % (e.name, args),
            "}",
        ]
        asm += [
            "",
            "        .globl  %s" % e.name,
            "        .type   %s, @function" % e.name,
            "        .p2align 4",
            "%s:" % e.name,
            "        .cfi_startproc",
            "        cmpl    $0, miopen_wrapper_route_word(%rip)",
            "        jne     miopen_wrapper_slow_%s" % e.name,
            "        jmp     *%s_impl@GOTPCREL(%%rip)" % e.name,
            "        .cfi_endproc",
            "        .size   %s, .-%s" % (e.name, e.name),
        ]
    asm += ["", '        .section .note.GNU-stack,"",@progbits', ""]
    slow.append("")
    write(os.path.join(out, "wrapper_stubs_x86_64.S"), "\n".join(asm))
    write(os.path.join(out, "wrapper_slow_paths.cpp"), "\n".join(slow))

    write(os.path.join(out, "public_exports.txt"), "\n".join(sorted(e.name for e in public_entries)) + "\n")
    write(os.path.join(out, "private_exports.txt"), "\n".join(sorted(e.name + "_impl" for e in all_entries)) + "\n")
    write(os.path.join(out, "custom_entries.txt"), "\n".join(sorted(custom)) + ("\n" if custom else ""))
    hpp, txt, cpp = forwarding_outputs(families, entries)
    write(os.path.join(out, "forwarding_set.hpp"), hpp)
    write(os.path.join(out, "forwarding_set.txt"), txt)
    write(os.path.join(out, "forwarding_stubs.cpp"), cpp)
    write(os.path.join(out, "wrapper_only.txt"), "\n".join(sorted(wrapper_only)) + ("\n" if wrapper_only else ""))
    write(os.path.join(out, "signatures.txt"), "\n".join(e.signature_line() for e in public_entries) + "\n")
    for lib, suffix, listed in (("libMIOpen.map", "", public_entries), ("libMIOpen_private.map", "_impl", all_entries)):
        body = "".join("    %s%s;\n" % (e.name, suffix) for e in sorted(listed, key=lambda x: x.name))
        write(os.path.join(out, lib), "/* Generated: exports of %s */\n{\n  global:\n%s  local:\n    *;\n};\n" % (lib, body))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--header", required=True)
    ap.add_argument("--output-dir", required=True)
    ap.add_argument("--include-dir", action="append", default=[])
    ap.add_argument("--policy")
    ap.add_argument("--stand-ins", action="store_true", help="parse with stand-in config/export/hip headers")
    ap.add_argument("--count-only", action="store_true", help="print the entry-point count and exit")
    a = ap.parse_args(argv)
    entries = parse(a.header, a.include_dir, a.stand_ins)
    if a.count_only:
        print(len(entries))
        return 0
    if not entries:
        sys.exit("miopen_wrapper_gen: no exported miopen* functions found in %s" % a.header)
    custom, extras, wrapper_only, families = read_policy(a.policy)
    generate(entries, extras, custom, a.output_dir, wrapper_only, families)
    return 0


if __name__ == "__main__":
    sys.exit(main())
