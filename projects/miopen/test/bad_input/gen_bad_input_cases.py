#!/usr/bin/env python3
"""Generates the bad-input corpus of the public MIOpen C API from miopen.h (issue 10, "Bad input").

    gen_bad_input_cases.py --header miopen.h --wrapper-gen miopen_wrapper_gen.py --policy policy.txt
                           --output-dir DIR [--include-dir D ...]

miopen.h is parsed with libclang, by the wrapper generator's own parse() (same arguments, same
stand-ins), so the corpus sees exactly the entry points the wrapper exports. For EVERY entry
point it emits:
  * one case per pointer parameter set to null in turn, every other argument built valid by a
    per-type "valid value factory" of bad_input_world.hpp (a live handle, set descriptors of the
    right kind and shape, canary-guarded buffers large enough for every tensor of the world);
  * one case per settable descriptor parameter (tensor, convolution, pooling, LRN, activation)
    passed created but never set, except the descriptor a setter/destroyer targets;
  * one case per descriptor (or handle) parameter passed an object of another kind (cast through
    void*: the public C types are distinct pointers).
Expected: miopenStatusBadParm for a null pointer and for an object of another kind,
miopenStatusNotInitialized for a descriptor never set; Success for a null stream or allocator
callback (their valid value). policy.txt lists the exceptions miopen.h documents (optional
pointers, descriptor fields with defaults), each with its reason. It also emits one baseline per
entry point, every argument valid, which must succeed: the proof that the factories build valid
companions (policy.txt names the entry points where they cannot, and what covers them).
Run by CMake at build time; the output is never committed.
"""
import argparse
import importlib.util
import os
import re
import sys

# Descriptor kinds: C type -> (world factory kind, settable after create)
DESCRIPTORS = {
    "miopenHandle_t": ("handle", False),
    "miopenTensorDescriptor_t": ("tensor", True),
    "miopenSeqTensorDescriptor_t": ("seqTensor", False),
    "miopenConvolutionDescriptor_t": ("conv", True),
    "miopenPoolingDescriptor_t": ("pooling", True),
    "miopenLRNDescriptor_t": ("lrn", True),
    "miopenActivationDescriptor_t": ("activation", True),
    "miopenFusionPlanDescriptor_t": ("fusionPlan", False),
    "miopenFusionOpDescriptor_t": ("fusionOp", False),
    "miopenOperatorArgs_t": ("operatorArgs", False),
}

# Pointer typedefs whose valid value is null (the default stream; the default allocator).
NULL_IS_VALID_TYPES = {"miopenAcceleratorQueue_t", "miopenAllocatorFunction", "miopenDeallocatorFunction"}

# Host scalars passed as const void* / void* (alpha, beta, ...): a float in a guarded buffer.
SCALAR_RE = re.compile(r"^(alpha|beta)\d*$|^(alpha|beta)(DataDiff|ParamDiff)$")

# Scalar values by parameter name (everything else: a type default below).
INT_VALUES = {
    "n": 2, "c": 3, "h": 8, "w": 8, "nStride": 192, "cStride": 64, "hStride": 8, "wStride": 1,
    "nbDims": 4, "num_lens": 4, "spatialDim": 2, "requestedSpatialDim": 2, "nbDimsRequested": 2,
    "dims": 4, "stride_h": 1, "stride_w": 1, "dilation_h": 1, "dilation_w": 1, "groupCount": 1,
    "windowHeight": 2, "windowWidth": 2, "requestAlgoCount": 1, "maxSolutionCount": 4, "value": 0,
    "findMode": 1, "op_idx": 0, "lrnN": 5,
}
INT_VALUES.update({("miopenSetNdPoolingDescriptor", "nbDims"): 2, ("miopenGetNdPoolingDescriptor", "nbDimsRequested"): 2})
# Input arrays by parameter name, or by (entry point, parameter name).
ARRAY_VALUES = {
    "lens": [2, 3, 8, 8], "dimsA": [2, 3, 8, 8], "stridesA": [192, 64, 8, 1], "padA": [0, 0],
    "strideA": [1, 1], "dilationA": [1, 1], "adjA": [0, 0], "windowDimA": [2, 2],
    ("miopenSetNdPoolingDescriptor", "stridesA"): [2, 2],
}
DOUBLE_VALUES = {"lrnK": 1.0, "lrnAlpha": 1e-4, "lrnBeta": 0.75, "epsilon": 1e-5, "expAvgFactor": 0.1}
ENUM_VALUES = {
    "miopenDataType_t": "miopenFloat", "miopenConvolutionMode_t": "miopenConvolution",
    "miopenPoolingMode_t": "miopenPoolingMax", "miopenLRNMode_t": "miopenLRNCrossChannel",
    "miopenActivationMode_t": "miopenActivationRELU", "miopenBatchNormMode_t": "miopenBNSpatial",
    "miopenTensorLayout_t": "miopenTensorNCHW", "miopenFusionDirection_t": "miopenVerticalFusion",
    "miopenConvFwdAlgorithm_t": "miopenConvolutionFwdAlgoDirect",
    "miopenConvBwdDataAlgorithm_t": "miopenConvolutionBwdDataAlgoDirect",
    "miopenConvBwdWeightsAlgorithm_t": "miopenConvolutionBwdWeightsAlgoDirect",
    "miopenSoftmaxAlgorithm_t": "MIOPEN_SOFTMAX_ACCURATE", "miopenSoftmaxMode_t": "MIOPEN_SOFTMAX_MODE_CHANNEL",
    "miopenTensorOp_t": "miopenTensorOpAdd", "miopenIndexType_t": "miopenIndexUint32",
    "miopenPoolingWorkspaceIndexMode_t": "miopenPoolingWorkspaceIndexMask",
    "miopenConvolutionFindMode_t": "miopenConvolutionFindModeNormal",
    "miopenConvolutionAttrib_t": "MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL",
}


def load_wrapper_gen(path):
    spec = importlib.util.spec_from_file_location("miopen_wrapper_gen", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read_policy(path):
    """'status <entry>.<param>|<null|unset|otherKind> <status...>' (the statuses that case may
    return, when the header documents others than the defaults); 'nobaseline <entry> <reason>'
    (its all-valid call cannot be built generically); 'skip <entry> <reason>' (no generated case:
    the reason names what covers it)."""
    status, skip, nobaseline = {}, {}, {}
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            kind, _, rest = line.partition(" ")
            rest = rest.strip()
            if kind == "status":
                key, _, statuses = rest.partition(" ")
                status[key] = statuses.split()
            elif kind == "nobaseline":
                name, _, reason = rest.partition(" ")
                nobaseline[name] = reason.strip()
            elif kind == "skip":
                name, _, reason = rest.partition(" ")
                skip[name] = reason.strip()
            else:
                sys.exit("gen_bad_input_cases: %s:%d: unknown policy line '%s'" % (path, lineno, line))
    return status, skip, nobaseline


def strip_const(t):
    t = t.strip()
    t = re.sub(r"^const\s+", "", t)
    t = re.sub(r"\s+const$", "", t)
    return t.strip()


def tensor_role(entry, param):
    """Which tensor of the world a descriptor parameter gets: the shapes must agree per family."""
    p = param
    if "Pooling" in entry:
        return "pooled" if p in ("yDesc", "dyDesc") else "x"
    if "BatchNorm" in entry or "BNTensor" in entry:
        if p in ("xDesc", "yDesc", "dxDesc", "dyDesc"):
            return "x"
        return "bn"
    if "Convolution" in entry or "Fusion" in entry or "OpConv" in entry or "OpBias" in entry:
        if p in ("wDesc", "dwDesc", "filterDesc"):
            return "w"
        if p in ("yDesc", "dyDesc", "zDesc", "outputDesc"):
            return "y"
        if p in ("bDesc", "biasDesc", "dbDesc"):
            return "bias"
        return "x"
    return "x"


def fusion_op_role(entry, param):
    """Which operator of the world a fusion-operator parameter gets (its argument setter's kind)."""
    roles = {"biasOp": "bias", "activFwdOp": "activFwd", "activBwdOp": "activBwd"}
    if param == "bnOp" or param.startswith("bn"):
        for word, role in (("Inference", "bnInference"), ("Forward", "bnForward"), ("Backward", "bnBackward")):
            if word in entry:
                return role
    return roles.get(param, "conv")


class Param:
    def __init__(self, entry, ctype, name):
        self.entry = entry
        self.ctype = ctype
        self.name = name
        self.base = strip_const(ctype)
        self.is_pointer = False
        self.kind = None  # descriptor kind
        self.pointee = None
        if self.base in DESCRIPTORS:
            self.kind = DESCRIPTORS[self.base][0]
            self.is_pointer = True
        elif self.base in NULL_IS_VALID_TYPES:
            self.is_pointer = True
        elif self.base.endswith("*"):
            self.is_pointer = True
            self.pointee = strip_const(self.base[:-1])
            full = re.sub(r"\s+const$", "", ctype.strip())
            self.pointee_full = full[:-1].strip()  # keeps an inner const (const char **)
            self.base = full

    def settable(self):
        return self.base in DESCRIPTORS and DESCRIPTORS[self.base][1]

    def valid(self):
        """C++ expression of a valid value of this parameter (World& w in scope)."""
        if self.kind == "tensor":
            return 'w.tensor("%s")' % tensor_role(self.entry, self.name)
        if self.kind == "fusionOp":
            return 'w.fusionOp("%s")' % fusion_op_role(self.entry, self.name)
        if self.kind is not None:
            return "w.%s()" % self.kind
        if self.base in NULL_IS_VALID_TYPES:
            return "%s{}" % self.base
        if self.pointee is not None:
            if self.pointee == "void":
                if SCALAR_RE.match(self.name):
                    return 'w.scalar("%s")' % self.name
                if self.name.lower() in ("workspace",):
                    return "w.workspace()"
                if self.ctype.startswith("const"):
                    return 'w.input("%s")' % self.name
                return 'w.output("%s")' % self.name
            if self.ctype.startswith("const") and self.pointee in ("int", "size_t"):
                values = ARRAY_VALUES.get((self.entry, self.name), ARRAY_VALUES.get(self.name))
                if values is None:
                    sys.exit("gen_bad_input_cases: %s: no values for input array '%s'" % (self.entry, self.name))
                return 'w.inputArray<%s>("%s", {%s})' % (self.pointee, self.name, ", ".join("%d" % v for v in values))
            return 'w.slot<%s>("%s")' % (self.pointee_full, self.name)
        if self.base in ("int", "unsigned int"):
            v = INT_VALUES.get((self.entry, self.name), INT_VALUES.get(self.name, 1))
            return "static_cast<%s>(%d)" % (self.base, v)
        if self.base in ("size_t", "uint64_t"):
            if self.name.lower() in ("workspacesize", "workspacesizeinbytes"):
                return "w.workspaceSize()"
            if self.name == "solution_id":
                # The naive direct solvers (85/86/87) apply to every problem of their direction.
                return "uint64_t{%d}" % (86 if "BackwardData" in self.entry else 87 if "BackwardWeights" in self.entry else 85)
            return "%s{%d}" % (self.base, INT_VALUES.get(self.name, 1))
        if self.base == "double":
            return repr(DOUBLE_VALUES.get(self.name, 0.5))
        if self.base == "bool":
            return "false"
        if self.base == "float":
            return "1.0f"
        if self.base in ENUM_VALUES:
            return ENUM_VALUES[self.base]
        if self.base.startswith("miopen") and self.base.endswith("_t"):
            return "static_cast<%s>(0)" % self.base
        sys.exit("gen_bad_input_cases: %s: no valid-value factory for parameter '%s %s'" % (self.entry, self.ctype, self.name))

    def null(self):
        return "static_cast<%s>(nullptr)" % self.base if self.pointee is not None or self.kind else "%s{}" % self.base

    def unset(self):
        return "w.unset<%s>()" % self.base

    def other_kind(self):
        return "w.otherKind<%s>()" % self.base


def is_target_of_setter(entry, index, param):
    """The descriptor a setter initializes (or a destroyer frees) may legally be never set."""
    if not re.match(r"^miopen(Set|Init|Derive|Destroy)", entry.name):
        return False
    first_desc = next(i for i, p in enumerate(entry.params) if strip_const(p[0]) in DESCRIPTORS)
    return index == first_desc


def cxx_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(entries, policy):
    status_over, skip, nobaseline = policy
    names = {e.name for e in entries}
    for key in status_over:
        ent = key.split(".", 1)[0].split("|", 1)[0]
        if ent not in names:
            sys.exit("gen_bad_input_cases: policy names unknown entry point '%s'" % key)
    for ent in list(skip) + list(nobaseline):
        if ent not in names:
            sys.exit("gen_bad_input_cases: policy skips unknown entry point '%s'" % ent)

    used = set()

    def lookup(key, default):
        if key in status_over:
            used.add(key)
        return status_over.get(key, default)

    lines = []
    baselines = []
    counts = {"null": 0, "unset": 0, "otherKind": 0, "entries": 0, "pointerParams": 0, "skipped": 0}
    minimum_pointer_params = 0
    for e in entries:
        params = [Param(e.name, t, n) for t, n in e.params]
        ptr_params = [p for p in params if p.is_pointer]
        if e.name in skip:
            counts["skipped"] += 1
            lines.append("    // %s: skipped (%s)" % (e.name, skip[e.name]))
            continue
        counts["entries"] += 1
        counts["pointerParams"] += len(ptr_params)
        # The baseline: every argument valid (a destroyer gets an object of its own). It proves
        # the factories build valid companions; entry points where they cannot are listed.
        if e.result == "miopenStatus_t":
            base_args = [q.valid() for q in params]
            if e.name.startswith("miopenDestroy") and params and params[0].kind is not None:
                base_args[0] = "w.fresh<%s>()" % params[0].base
            if e.name in nobaseline:
                baselines.append("    // %s: no valid baseline (%s)" % (e.name, nobaseline[e.name]))
            else:
                baselines.append("    {%s, Expect::oneOf({miopenStatusSuccess}), [](World& w) { (void)w; return %s(%s); }}," % (
                    cxx_string(e.name + ".allValid"), e.name, ", ".join(base_args)))
        minimum_pointer_params += len(ptr_params)
        for i, p in enumerate(params):
            variants = []
            if p.is_pointer:
                key = "%s.%s" % (e.name, p.name)
                if p.base in NULL_IS_VALID_TYPES:
                    expect = "Expect::oneOf({miopenStatusSuccess})"
                else:
                    statuses = lookup(key + "|null", ["miopenStatusBadParm"])
                    expect = "Expect::oneOf({%s})" % ", ".join(statuses)
                variants.append(("null", p.null(), expect))
            if p.settable() and not is_target_of_setter(e, i, p):
                statuses = lookup("%s.%s|unset" % (e.name, p.name),
                                           ["miopenStatusNotInitialized"])
                variants.append(("unset", p.unset(), "Expect::oneOf({%s})" % ", ".join(statuses)))
            if p.kind is not None:
                statuses = lookup("%s.%s|otherKind" % (e.name, p.name), ["miopenStatusBadParm"])
                variants.append(("otherKind", p.other_kind(), "Expect::oneOf({%s})" % ", ".join(statuses)))
            for label, expr, expect in variants:
                args = [expr if j == i else q.valid() for j, q in enumerate(params)]
                name = "%s.%s.%s" % (e.name, p.name, label)
                call = "%s(%s)" % (e.name, ", ".join(args))
                if e.result != "miopenStatus_t":
                    sys.exit("gen_bad_input_cases: %s returns %s and has pointer parameters" % (e.name, e.result))
                lines.append("    {%s, %s, [](World& w) { (void)w; return %s; }}," % (cxx_string(name), expect, call))
                counts[label] += 1
    stale = sorted(set(status_over) - used)
    if stale:
        sys.exit("gen_bad_input_cases: policy names cases that are not generated: %s" % ", ".join(stale))
    total = counts["null"] + counts["unset"] + counts["otherKind"]
    head = [
        "// Generated by gen_bad_input_cases.py from miopen.h: do not edit.",
        "#pragma once",
        "// cases: %d (null %d, never set %d, other kind %d)" % (total, counts["null"], counts["unset"], counts["otherKind"]),
        "#define BAD_INPUT_HEADER_ENTRY_POINTS %d" % len(entries),
        "#define BAD_INPUT_GENERATED_ENTRY_POINTS %d" % counts["entries"],
        "#define BAD_INPUT_SKIPPED_ENTRY_POINTS %d" % counts["skipped"],
        "#define BAD_INPUT_POINTER_PARAMETERS %d" % counts["pointerParams"],
        "#define BAD_INPUT_GENERATED_CASES %d" % total,
        "",
    ]
    head.insert(-1, "#define BAD_INPUT_BASELINES %d" % sum(1 for b in baselines if b.lstrip().startswith("{")))
    head.insert(-1, "#define BAD_INPUT_NO_BASELINE %d" % len(nobaseline))
    head.insert(-1, "#define BAD_INPUT_NON_STATUS_ENTRY_POINTS %d" % sum(1 for e in entries if e.result != "miopenStatus_t"))
    table = ["// Generated by gen_bad_input_cases.py from miopen.h: do not edit.",
             "// The elements of an initializer list of BadCase (bad_input_test.cpp)."] + lines
    base = ["// Generated by gen_bad_input_cases.py from miopen.h: do not edit.",
            "// One call per entry point with every argument valid (bad_input_test.cpp)."] + baselines
    return "\n".join(head), "\n".join(table) + "\n", "\n".join(base) + "\n"


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
    ap.add_argument("--wrapper-gen", required=True)
    ap.add_argument("--policy", required=True)
    ap.add_argument("--output-dir", required=True)
    ap.add_argument("--include-dir", action="append", default=[])
    args = ap.parse_args()
    gen = load_wrapper_gen(args.wrapper_gen)
    entries = gen.parse(args.header, args.include_dir, not args.include_dir)
    if len(entries) < 100:
        sys.exit("gen_bad_input_cases: only %d entry points parsed from %s" % (len(entries), args.header))
    head, table, base = generate(entries, read_policy(args.policy))
    write(os.path.join(args.output_dir, "bad_input_generated_baselines.inc"), base)
    write(os.path.join(args.output_dir, "bad_input_generated_counts.hpp"), head)
    write(os.path.join(args.output_dir, "bad_input_generated_cases.inc"), table)


if __name__ == "__main__":
    main()
