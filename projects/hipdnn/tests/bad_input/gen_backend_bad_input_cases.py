#!/usr/bin/env python3
"""Generates the bad-input corpus of the hipDNN backend C API from hipdnn_backend.h (issue 10).

    gen_backend_bad_input_cases.py --header hipdnn_backend.h --output-dir DIR [--include-dir D ...]

hipdnn_backend.h is parsed with libclang (python3-clang-14: run with /usr/bin/python3). For EVERY
exported hipdnn* function it emits:
  * one case per pointer parameter set to null in turn, every other argument valid (a live handle;
    a descriptor of the kind and state the function needs: a finalized plan and variant pack for
    Execute, an open tensor descriptor for SetAttribute and Finalize, a finalized one for
    GetAttribute, a finalized graph for GetSerializedBinaryGraph; guarded buffers of the sizes the
    length arguments state);
  * one case per handle or descriptor parameter passed a live object of the other C type (a
    descriptor as a handle, a handle as a descriptor; cast through void*);
  * one case per descriptor parameter that needs a specific descriptor type, passed a finalized
    descriptor of another type, and one passed a descriptor of the right type never finalized.
Destroyed-then-used objects are not generated (undefined behaviour by contract). The expected
statuses come from the header's comments, in VALID/EXPECT tables below (one place to review).
Run by CMake at build time; the output is never committed.
"""
import argparse
import os
import re
import sys

try:
    import clang.cindex as ci
except ImportError:  # pragma: no cover
    sys.exit("gen_backend_bad_input_cases: python3-clang-14 is required (run with /usr/bin/python3)")


def configure_libclang():
    if ci.Config.loaded:
        return
    for candidate in ("/usr/lib/llvm-14/lib/libclang.so.1", "/usr/lib/x86_64-linux-gnu/libclang-14.so.1"):
        if os.path.exists(candidate):
            ci.Config.set_library_file(candidate)
            return


def parse(header, include_dirs):
    configure_libclang()
    args = ["-x", "c++", "-std=c++17"] + ["-I" + d for d in include_dirs]
    tu = ci.Index.create().parse(header, args=args)
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        for d in errors:
            sys.stderr.write("gen_backend_bad_input_cases: %s\n" % d)
        sys.exit("gen_backend_bad_input_cases: %s does not parse" % header)
    header_real = os.path.realpath(header)
    entries, seen = [], set()

    def visit(cursor):
        for c in cursor.get_children():
            if c.kind in (ci.CursorKind.LINKAGE_SPEC, ci.CursorKind.UNEXPOSED_DECL):
                visit(c)
                continue
            if c.kind != ci.CursorKind.FUNCTION_DECL or c.location.file is None:
                continue
            if os.path.realpath(c.location.file.name) != header_real or not c.spelling.startswith("hipdnn"):
                continue
            if not any(ch.kind == ci.CursorKind.VISIBILITY_ATTR for ch in c.get_children()):
                continue
            if c.spelling in seen:
                continue
            seen.add(c.spelling)
            params = [(a.type.spelling, a.spelling or "arg%d" % i) for i, a in enumerate(c.get_arguments())]
            entries.append((c.spelling, c.result_type.spelling, params))

    visit(tu.cursor)
    return entries


HANDLE = "hipdnnHandle_t"
DESC = "hipdnnBackendDescriptor_t"
NULL_IS_VALID_TYPES = {"hipStream_t"}

# Valid values by (function, parameter), then by parameter type. Expressions in C++ with
# `BackendWorld& w` in scope.
VALID = {
    ("hipdnnBackendDestroyDescriptor", "descriptor"): "w.freshDescriptor()",
    ("hipdnnBackendExecute", "executionPlan"): "w.plan()",
    ("hipdnnBackendExecute", "variantPack"): "w.variantPack()",
    ("hipdnnBackendFinalize", "descriptor"): "w.openTensor()",
    ("hipdnnBackendGetAttribute", "descriptor"): "w.finalizedTensor()",
    ("hipdnnBackendGetAttribute", "attributeName"): "HIPDNN_ATTR_TENSOR_UNIQUE_ID",
    ("hipdnnBackendGetAttribute", "requestedElementCount"): "int64_t{1}",
    ("hipdnnBackendGetAttribute", "arrayOfElements"): 'w.slot<int64_t>("arrayOfElements")',
    ("hipdnnBackendSetAttribute", "descriptor"): "w.openTensor()",
    ("hipdnnBackendSetAttribute", "attributeName"): "HIPDNN_ATTR_TENSOR_UNIQUE_ID",
    ("hipdnnBackendSetAttribute", "elementCount"): "int64_t{1}",
    ("hipdnnBackendSetAttribute", "arrayOfElements"): "w.input<int64_t>({7})",
    ("hipdnnGetLastErrorString", "maxSize"): "w.stringBytes()",
    ("hipdnnGetLastErrorString", "message"): "w.chars()",
    ("hipdnnPeekLastErrorString_ext", "maxSize"): "w.stringBytes()",
    ("hipdnnPeekLastErrorString_ext", "message"): "w.chars()",
    ("hipdnnBackendCreateAndDeserializeGraph_ext", "serializedGraph"): "w.graphBytes()",
    ("hipdnnBackendCreateAndDeserializeGraph_ext", "graphByteSize"): "w.graphByteCount()",
    ("hipdnnBackendGetSerializedBinaryGraph_ext", "descriptor"): "w.graph()",
    ("hipdnnBackendGetSerializedBinaryGraph_ext", "requestedSize"): "w.bigBytes()",
    ("hipdnnBackendGetSerializedBinaryGraph_ext", "serializedGraph"): "w.bytes()",
    ("hipdnnLoggingCallback_ext", "msg"): 'w.text("bad-input corpus")',
    # The plugin paths cannot change while the world's handle is alive (NOT_SUPPORTED): the
    # argument checks come first, and a valid call changes nothing.
    ("hipdnnSetEnginePluginPaths_ext", "numPaths"): "size_t{1}",
    ("hipdnnSetEnginePluginPaths_ext", "pluginPaths"): "w.pluginPaths()",
    ("hipdnnGetLoadedEnginePluginPaths_ext", "numPluginPaths"): "w.lengthSlot(w.kPathCount)",
    ("hipdnnGetLoadedEnginePluginPaths_ext", "pluginPaths"): "w.pathBuffers()",
    ("hipdnnGetLoadedEnginePluginPaths_ext", "maxStringLen"): "w.lengthSlot(w.stringBytes())",
    ("hipdnnSetUserLogCallback_ext", "callback"): "&BackendWorld::ignoreLog",
    ("hipdnnSetUserLogCallback_ext", "userHandle"): "w.logUserHandle()",
    ("hipdnnGetEngineInfo_ext", "engineIndex"): "size_t{0}",
}
for _n in ("engineName", "pluginName", "version", "type"):
    VALID[("hipdnnGetEngineInfo_ext", _n)] = "w.chars()"
    VALID[("hipdnnGetEngineInfo_ext", _n + "Len")] = "w.lengthSlot(w.stringBytes())"

TYPE_VALID = {
    HANDLE: "w.handle()",
    "hipdnnBackendDescriptorType_t": "HIPDNN_BACKEND_TENSOR_DESCRIPTOR",
    "hipdnnBackendAttributeType_t": "HIPDNN_TYPE_INT64",
    "hipdnnSeverity_t": "HIPDNN_SEV_ERROR",
    "hipdnnLogCallbackMode_t": "HIPDNN_LOG_CALLBACK_SYNC",
    "hipdnnPluginLoadingMode_ext_t": "HIPDNN_PLUGIN_LOADING_ADDITIVE",
    "hipdnnPluginUnloadingMode_ext_t": "HIPDNN_PLUGIN_UNLOAD_LAZY",
    "hipdnnStatus_t": "HIPDNN_STATUS_BAD_PARAM",
    "hipStream_t": "hipStream_t{}",
}

# Descriptor parameters that need one descriptor type and a finalized descriptor:
# (function, parameter) -> (never-finalized factory, statuses when never finalized).
TYPED = {
    ("hipdnnBackendExecute", "executionPlan"): ("w.openPlan()", ["HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED"]),
    ("hipdnnBackendExecute", "variantPack"): ("w.openVariantPack()", ["HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED"]),
    ("hipdnnBackendGetSerializedBinaryGraph_ext", "descriptor"): ("w.openGraph()", ["HIPDNN_STATUS_NOT_INITIALIZED"]),
}
# GetAttribute reads finalized descriptors of any type: never finalized -> NOT_INITIALIZED.
NOT_FINALIZED_ANY = {("hipdnnBackendGetAttribute", "descriptor"): ["HIPDNN_STATUS_NOT_INITIALIZED"]}

# Expected statuses of the null cases, from the header's comments. Default: BAD_PARAM for a
# handle ("not a live handle"), BAD_PARAM_NULL_POINTER for anything else (descriptors included).
NULL_EXPECT = {
    # "SUCCESS; BAD_PARAM (not a live descriptor)".
    ("hipdnnBackendDestroyDescriptor", "descriptor"): ["HIPDNN_STATUS_BAD_PARAM"],
    # Optional outputs: the backend writes them only when non-null (a count query and an id the
    # caller may not need).
    ("hipdnnBackendGetAttribute", "elementCount"): ["HIPDNN_STATUS_SUCCESS"],
    ("hipdnnGetEngineInfo_ext", "engineId"): ["HIPDNN_STATUS_SUCCESS"],
    # hipdnnSetUserLogCallback_ext: "BAD_PARAM (NULL callback or userHandle ...)".
    ("hipdnnSetUserLogCallback_ext", "callback"): ["HIPDNN_STATUS_BAD_PARAM"],
    ("hipdnnSetUserLogCallback_ext", "userHandle"): ["HIPDNN_STATUS_BAD_PARAM"],
    # "With serializedGraph NULL only *graphByteSize is written."
    ("hipdnnBackendGetSerializedBinaryGraph_ext", "serializedGraph"): ["HIPDNN_STATUS_SUCCESS"],
    # "String buffers NULL: only the *Len sizes (including the NUL) are written."
    ("hipdnnGetEngineInfo_ext", "engineName"): ["HIPDNN_STATUS_SUCCESS"],
    ("hipdnnGetEngineInfo_ext", "pluginName"): ["HIPDNN_STATUS_SUCCESS"],
    ("hipdnnGetEngineInfo_ext", "version"): ["HIPDNN_STATUS_SUCCESS"],
    ("hipdnnGetEngineInfo_ext", "type"): ["HIPDNN_STATUS_SUCCESS"],
    # Two-call query: pluginPaths NULL asks for the counts only.
    ("hipdnnGetLoadedEnginePluginPaths_ext", "pluginPaths"): ["HIPDNN_STATUS_SUCCESS"],
}
# void functions: "Does nothing when message is NULL or maxSize is 0"; the log sink ignores null.
VOID_NULL_OK = {("hipdnnGetLastErrorString", "message"), ("hipdnnPeekLastErrorString_ext", "message"),
                ("hipdnnLoggingCallback_ext", "msg")}


def strip_const(t):
    t = re.sub(r"^const\s+", "", t.strip())
    return re.sub(r"\s+const$", "", t).strip()


def valid(entry, ctype, name):
    if (entry, name) in VALID:
        return VALID[(entry, name)]
    base = strip_const(ctype)
    if base in TYPE_VALID:
        return TYPE_VALID[base]
    if base == DESC:
        sys.exit("gen_backend_bad_input_cases: %s.%s: no descriptor factory" % (entry, name))
    if base.endswith("*"):
        pointee = re.sub(r"\s+const$", "", ctype.strip())[:-1].strip()
        if pointee.startswith("const"):
            sys.exit("gen_backend_bad_input_cases: %s.%s: no input factory for '%s'" % (entry, name, ctype))
        return 'w.slot<%s>("%s")' % (pointee, name)
    if base in ("size_t", "int64_t"):
        return "%s{1}" % base
    sys.exit("gen_backend_bad_input_cases: %s.%s: no valid-value factory for '%s'" % (entry, name, ctype))


def is_pointer(ctype):
    base = strip_const(ctype)
    return base.endswith("*") or base in (HANDLE, DESC) or base in NULL_IS_VALID_TYPES or base.endswith("Callback_t") \
        or base == "hipdnnUserLogCallbackHandle_t"


def null_of(ctype):
    return "static_cast<%s>(nullptr)" % re.sub(r"\s+const$", "", ctype.strip())


def cxx_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(entries):
    lines = []
    counts = {"null": 0, "otherType": 0, "wrongDescriptorType": 0, "notFinalized": 0}
    pointer_params = 0
    with_cases = 0
    for name, result, params in entries:
        is_void = result == "void"
        if result not in ("hipdnnStatus_t", "void"):
            if any(is_pointer(t) for t, _ in params):
                sys.exit("gen_backend_bad_input_cases: %s returns %s and has pointer parameters" % (name, result))
            continue
        emitted = 0
        for i, (ctype, pname) in enumerate(params):
            base = strip_const(ctype)
            variants = []
            if is_pointer(ctype):
                pointer_params += 1
                if is_void:
                    if (name, pname) not in VOID_NULL_OK:
                        sys.exit("gen_backend_bad_input_cases: %s.%s: a void function's null case has no rule" % (name, pname))
                    expect = "Expect::noStatus()"
                elif base in NULL_IS_VALID_TYPES:
                    expect = "Expect::oneOf({HIPDNN_STATUS_SUCCESS})"
                else:
                    default = ["HIPDNN_STATUS_BAD_PARAM"] if base == HANDLE else ["HIPDNN_STATUS_BAD_PARAM_NULL_POINTER"]
                    expect = "Expect::oneOf({%s})" % ", ".join(NULL_EXPECT.get((name, pname), default))
                variants.append(("null", null_of(ctype), expect))
            if base == HANDLE:
                variants.append(("otherType", "w.descriptorAsHandle()", "Expect::oneOf({HIPDNN_STATUS_BAD_PARAM})"))
            if base == DESC:
                variants.append(("otherType", "w.handleAsDescriptor()", "Expect::oneOf({HIPDNN_STATUS_BAD_PARAM})"))
                if (name, pname) in TYPED:
                    open_factory, statuses = TYPED[(name, pname)]
                    variants.append(("wrongDescriptorType", "w.finalizedTensor()", "Expect::oneOf({HIPDNN_STATUS_BAD_PARAM})"))
                    variants.append(("notFinalized", open_factory, "Expect::oneOf({%s})" % ", ".join(statuses)))
                if (name, pname) in NOT_FINALIZED_ANY:
                    variants.append(("notFinalized", "w.openTensor()",
                                     "Expect::oneOf({%s})" % ", ".join(NOT_FINALIZED_ANY[(name, pname)])))
            for label, expr, expect in variants:
                args = [expr if j == i else valid(name, t, n) for j, (t, n) in enumerate(params)]
                call = "%s(%s)" % (name, ", ".join(args))
                body = ("%s; return kNoStatus;" % call) if is_void else ("return static_cast<int>(%s);" % call)
                lines.append("    {%s, %s, [](BackendWorld& w) { (void)w; %s }}," % (
                    cxx_string("%s.%s.%s" % (name, pname, label)), expect, body))
                counts[label] += 1
                emitted += 1
        if emitted:
            with_cases += 1
    total = sum(counts.values())
    head = [
        "// Generated by gen_backend_bad_input_cases.py from hipdnn_backend.h: do not edit.",
        "#pragma once",
        "// cases: %d (%s)" % (total, ", ".join("%s %d" % kv for kv in counts.items())),
        "#define BACKEND_BAD_INPUT_HEADER_FUNCTIONS %d" % len(entries),
        "#define BACKEND_BAD_INPUT_FUNCTIONS_WITH_CASES %d" % with_cases,
        "#define BACKEND_BAD_INPUT_POINTER_PARAMETERS %d" % pointer_params,
        "#define BACKEND_BAD_INPUT_GENERATED_CASES %d" % total,
        "",
    ]
    table = ["// Generated by gen_backend_bad_input_cases.py from hipdnn_backend.h: do not edit."] + lines
    return "\n".join(head), "\n".join(table) + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--header", required=True)
    ap.add_argument("--output-dir", required=True)
    ap.add_argument("--include-dir", action="append", default=[])
    args = ap.parse_args()
    entries = parse(args.header, args.include_dir)
    if len(entries) < 20:
        sys.exit("gen_backend_bad_input_cases: only %d functions parsed from %s" % (len(entries), args.header))
    head, table = generate(entries)
    write(os.path.join(args.output_dir, "backend_bad_input_generated_counts.hpp"), head)
    write(os.path.join(args.output_dir, "backend_bad_input_generated_cases.inc"), table)


if __name__ == "__main__":
    main()
