// Hand-written bad-input cases on top of the generated corpus: zero, negative and huge dimensions,
// element counts whose byte size overflows size_t, mismatched shapes, types and layouts,
// workspace too small, unsupported combinations — for convolution, batch normalization, pooling,
// activation, softmax, LRN, fusion and the tensor operations. Each runs in a fresh World (its
// x [2,3,8,8], w [4,3,3,3], y [2,4,6,6], bias [1,4,1,1], bn [1,3,1,1], pooled [2,3,4,4]).
#include "bad_input_case.hpp"

#include <limits>

namespace bad_input {
namespace {

constexpr miopenStatus_t kBad = miopenStatusBadParm;

// A set tensor descriptor living for the rest of the case.
struct T
{
    test::Tensor t;
    T(miopenDataType_t type, std::vector<int> lens) : t(type, lens, {}) {}
    operator miopenTensorDescriptor_t() const { return t; }
};

miopenStatus_t convForward(World& w, miopenTensorDescriptor_t x, miopenTensorDescriptor_t wd,
                           miopenConvolutionDescriptor_t conv, miopenTensorDescriptor_t y,
                           miopenConvFwdAlgorithm_t algo = miopenConvolutionFwdAlgoDirect, std::size_t ws = 0)
{
    return miopenConvolutionForward(w.handle(), w.scalar("alpha"), x, w.input("x"), wd, w.input("w"), conv, algo,
                                    w.scalar("beta"), y, w.output("y"), ws ? w.workspace() : nullptr, ws);
}

} // namespace

const std::vector<BadCase>& handWrittenCases()
{
    static const std::vector<BadCase> kCases = {
        // ---- tensor descriptors: zero, negative, huge; byte sizes overflowing size_t ----------
        {"tensor.Set4d.hugeDimsOverflowElementCount", Expect::oneOf({kBad}), [](World& w) {
             const int m = std::numeric_limits<int>::max();
             return miopenSet4dTensorDescriptor(w.unset<miopenTensorDescriptor_t>(), miopenFloat, m, m, m, m); }},
        {"tensor.Set4dEx.negativeStride", Expect::oneOf({kBad}), [](World& w) {
             return miopenSet4dTensorDescriptorEx(w.unset<miopenTensorDescriptor_t>(), miopenFloat, 1, 1, 2, 2, 4, 4, -2, 1); }},
        {"tensor.SetNd.negativeDim", Expect::oneOf({kBad}), [](World& w) {
             return miopenSetTensorDescriptor(w.unset<miopenTensorDescriptor_t>(), miopenFloat, 2, w.inputArray<int>("dims", {4, -1}), nullptr); }},
        {"tensor.SetNd.zeroDim", Expect::oneOf({kBad}), [](World& w) {
             return miopenSetTensorDescriptor(w.unset<miopenTensorDescriptor_t>(), miopenFloat, 3, w.inputArray<int>("dims", {4, 0, 2}), nullptr); }},
        {"tensor.SetNd.negativeRank", Expect::oneOf({kBad}), [](World& w) {
             return miopenSetTensorDescriptor(w.unset<miopenTensorDescriptor_t>(), miopenFloat, -1, w.inputArray<int>("dims", {4}), nullptr); }},
        {"tensor.SetV2.elementCountOverflowsSizeT", Expect::oneOf({kBad}), [](World& w) {
             return miopenSetTensorDescriptorV2(w.unset<miopenTensorDescriptor_t>(), miopenFloat, 3,
                                                w.inputArray<size_t>("dims", {size_t(1) << 31, size_t(1) << 31, size_t(1) << 3}), nullptr); }},
        {"tensor.SetV2.byteSizeOverflowsSizeT", Expect::oneOf({kBad}), [](World& w) {
             return miopenSetTensorDescriptorV2(w.unset<miopenTensorDescriptor_t>(), miopenDouble, 1,
                                                w.inputArray<size_t>("dims", {size_t(1) << 61}), nullptr); }},
        {"tensor.SetV2.hugeStrideOverflowsSpan", Expect::oneOf({kBad}), [](World& w) {
             return miopenSetTensorDescriptorV2(w.unset<miopenTensorDescriptor_t>(), miopenFloat, 2,
                                                w.inputArray<size_t>("dims", {4, 4}),
                                                w.inputArray<size_t>("strides", {std::numeric_limits<size_t>::max() / 2, 1})); }},
        {"tensor.SetCastType.badEnum", Expect::oneOf({kBad}), [](World& w) {
             return miopenSetTensorCastType(w.tensor("x"), static_cast<miopenDataType_t>(77)); }},
        {"tensor.GetNd.unsetDescriptor", Expect::oneOf({miopenStatusNotInitialized}), [](World& w) {
             return miopenGetTensorDescriptor(w.unset<miopenTensorDescriptor_t>(), w.slot<miopenDataType_t>("t"), w.slot<int>("d"), w.slot<int>("s")); }},
        {"errorString.unknownStatus", Expect::oneOf({miopenStatusSuccess}), [](World&) {
             // The one entry point without a status: an unknown value still gets a string.
             const char* text = miopenGetErrorString(static_cast<miopenStatus_t>(999));
             return text != nullptr && text[0] != '\0' ? miopenStatusSuccess : miopenStatusUnknownError; }},
        // ---- tensor operations: mismatched shapes, types, unsupported ops ----------------------
        {"tensorOp.badOpEnum", Expect::oneOf({kBad}), [](World& w) {
             return miopenOpTensor(w.handle(), static_cast<miopenTensorOp_t>(42), w.scalar("alpha1"), w.tensor("x"), w.input("a"),
                                   w.scalar("alpha2"), w.tensor("x"), w.input("b"), w.scalar("beta"), w.tensor("x"), w.output("c")); }},
        {"tensorOp.bNotBroadcastable", Expect::oneOf({kBad}), [](World& w) {
             T b(miopenFloat, {1, 2, 1, 1});
             return miopenOpTensor(w.handle(), miopenTensorOpAdd, w.scalar("alpha1"), w.tensor("x"), w.input("a"),
                                   w.scalar("alpha2"), b, w.input("b"), w.scalar("beta"), w.tensor("x"), w.output("c")); }},
        {"tensorOp.rankMismatch", Expect::oneOf({kBad}), [](World& w) {
             T c(miopenFloat, {2, 3, 64});
             return miopenOpTensor(w.handle(), miopenTensorOpMul, w.scalar("alpha1"), w.tensor("x"), w.input("a"),
                                   w.scalar("alpha2"), w.tensor("x"), w.input("b"), w.scalar("beta"), c, w.output("c")); }},
        {"setTensor.nullAlpha", Expect::oneOf({kBad}), [](World& w) {
             return miopenSetTensor(w.handle(), w.tensor("x"), w.output("y"), nullptr); }},
        {"scaleTensor.otherKind", Expect::oneOf({kBad}), [](World& w) {
             return miopenScaleTensor(w.handle(), w.otherKind<miopenTensorDescriptor_t>(), w.output("y"), w.scalar("alpha")); }},
        // ---- convolution ------------------------------------------------------------------------
        {"conv.forward.weightChannelMismatch", Expect::oneOf({kBad}), [](World& w) {
             T wd(miopenFloat, {4, 2, 3, 3});
             return convForward(w, w.tensor("x"), wd, w.conv(), w.tensor("y")); }},
        {"conv.forward.filterLargerThanInput", Expect::oneOf({kBad}), [](World& w) {
             T wd(miopenFloat, {4, 3, 9, 9});
             T y(miopenFloat, {2, 4, 1, 1});
             return convForward(w, w.tensor("x"), wd, w.conv(), y); }},
        {"conv.forward.halfInputFloatOutput", Expect::oneOf({kBad}), [](World& w) {
             T x(miopenHalf, {2, 3, 8, 8});
             T wd(miopenHalf, {4, 3, 3, 3});
             return convForward(w, x, wd, w.conv(), w.tensor("y")); }},
        {"conv.forward.groupsDoNotDivideChannels", Expect::oneOf({kBad}), [](World& w) {
             test::Conv conv;
             EXPECT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 0, 0, 1, 1, 1, 1));
             EXPECT_MIOPEN_OK(miopenSetConvolutionGroupCount(conv, 2));
             return convForward(w, w.tensor("x"), w.tensor("w"), conv, w.tensor("y")); }},
        {"conv.forward.rankMismatch3dFilter", Expect::oneOf({kBad}), [](World& w) {
             T wd(miopenFloat, {4, 3, 3, 3, 3});
             return convForward(w, w.tensor("x"), wd, w.conv(), w.tensor("y")); }},
        {"conv.forward.gemmWorkspaceTooSmall", Expect::oneOf({kBad}), [](World& w) {
             return convForward(w, w.tensor("x"), w.tensor("w"), w.conv(), w.tensor("y"), miopenConvolutionFwdAlgoGEMM, 4); }},
        {"conv.backwardData.int8IsForwardOnly", Expect::oneOf({kBad}), [](World& w) {
             T x(miopenInt8, {2, 3, 8, 8}), wd(miopenInt8, {4, 3, 3, 3}), y(miopenInt8, {2, 4, 6, 6});
             return miopenConvolutionBackwardData(w.handle(), w.scalar("alpha"), y, w.input("dy"), wd, w.input("w"), w.conv(),
                                                  miopenConvolutionBwdDataAlgoDirect, w.scalar("beta"), x, w.output("dx"), nullptr, 0); }},
        {"conv.outputDim.filterLargerThanInput", Expect::oneOf({kBad}), [](World& w) {
             T wd(miopenFloat, {4, 3, 9, 9});
             return miopenGetConvolutionForwardOutputDim(w.conv(), w.tensor("x"), wd, w.slot<int>("n"), w.slot<int>("c"), w.slot<int>("h"), w.slot<int>("w")); }},
        {"conv.initNd.zeroSpatialDims", Expect::oneOf({kBad}), [](World& w) {
             return miopenInitConvolutionNdDescriptor(w.unset<miopenConvolutionDescriptor_t>(), 0, w.inputArray<int>("p", {0}),
                                                      w.inputArray<int>("s", {1}), w.inputArray<int>("d", {1}), miopenConvolution); }},
        {"conv.init.hugePaddingOverflow", Expect::oneOf({kBad}), [](World& w) {
             test::Conv conv;
             const int m = std::numeric_limits<int>::max();
             const miopenStatus_t s = miopenInitConvolutionDescriptor(conv, miopenConvolution, m, m, 1, 1, 1, 1);
             if(s != miopenStatusSuccess)
                 return s;
             return miopenGetConvolutionForwardOutputDim(conv, w.tensor("x"), w.tensor("w"), w.slot<int>("n"), w.slot<int>("c"), w.slot<int>("h"), w.slot<int>("w")); }},
        {"conv.setGroupCount.zero", Expect::oneOf({kBad}), [](World& w) { return miopenSetConvolutionGroupCount(w.conv(), 0); }},
        {"conv.immediate.forwardSolutionForBackwardData", Expect::oneOf({kBad}), [](World& w) {
             return miopenConvolutionBackwardDataImmediate(w.handle(), w.tensor("y"), w.input("dy"), w.tensor("w"), w.input("w"), w.conv(),
                                                           w.tensor("x"), w.output("dx"), w.workspace(), w.workspaceSize(), 85); }},
        {"conv.find.requestNegative", Expect::oneOf({kBad}), [](World& w) {
             return miopenFindConvolutionForwardAlgorithm(w.handle(), w.tensor("x"), w.input("x"), w.tensor("w"), w.input("w"), w.conv(),
                                                          w.tensor("y"), w.output("y"), -1, w.slot<int>("n"), w.slot<miopenConvAlgoPerf_t>("perf"),
                                                          w.workspace(), w.workspaceSize(), false); }},
        {"conv.backwardBias.biasShapeMismatch", Expect::oneOf({kBad}), [](World& w) {
             T db(miopenFloat, {1, 3, 1, 1});
             return miopenConvolutionBackwardBias(w.handle(), w.scalar("alpha"), w.tensor("y"), w.input("dy"), w.scalar("beta"), db, w.output("db")); }},
        {"conv.outputDim.hugeDilationOverflow", Expect::oneOf({kBad}), [](World& w) {
             test::Conv conv;
             const int m = std::numeric_limits<int>::max();
             const miopenStatus_t s = miopenInitConvolutionDescriptor(conv, miopenConvolution, 0, 0, 1, 1, m, m);
             if(s != miopenStatusSuccess)
                 return s;
             return miopenGetConvolutionForwardOutputDim(conv, w.tensor("x"), w.tensor("w"), w.slot<int>("n"), w.slot<int>("c"), w.slot<int>("h"), w.slot<int>("w")); }},
        {"conv.workspace.hugeTensorsOverflow", Expect::oneOf({kBad}), [](World& w) {
             // x [1, 2^20, 2^20, 2^20] fits size_t; the im2col matrix C*R*S*Ho*Wo does not.
             const size_t big = size_t(1) << 20;
             test::Tensor x, wd, y;
             EXPECT_MIOPEN_OK(miopenSetTensorDescriptorV2(x, miopenFloat, 4, w.inputArray<size_t>("x", {1, big, big, big}), nullptr));
             EXPECT_MIOPEN_OK(miopenSetTensorDescriptorV2(wd, miopenFloat, 4, w.inputArray<size_t>("w", {1, big, big / 2, big / 2}), nullptr));
             EXPECT_MIOPEN_OK(miopenSetTensorDescriptorV2(y, miopenFloat, 4, w.inputArray<size_t>("y", {1, 1, big / 2 + 1, big / 2 + 1}), nullptr));
             return miopenConvolutionForwardGetWorkSpaceSize(w.handle(), wd, x, w.conv(), y, w.slot<size_t>("ws")); }},
        // ---- outputs of exactly the stated size: nothing written past them -------------------
        {"conv.getNd.requestedMoreThanRank", Expect::oneOf({kBad}), [](World& w) {
             return miopenGetConvolutionNdDescriptor(w.conv(), 3, w.exact<int>(1), w.exact<int>(2), w.exact<int>(2), w.exact<int>(2),
                                                     w.exact<miopenConvolutionMode_t>(1)); }},
        {"conv.getNd.exactArrays", Expect::oneOf({miopenStatusSuccess}), [](World& w) {
             return miopenGetConvolutionNdDescriptor(w.conv(), 2, w.exact<int>(1), w.exact<int>(2), w.exact<int>(2), w.exact<int>(2),
                                                     w.exact<miopenConvolutionMode_t>(1)); }},
        {"conv.ndOutputDim.exactArray", Expect::oneOf({miopenStatusSuccess}), [](World& w) {
             return miopenGetConvolutionNdForwardOutputDim(w.conv(), w.tensor("x"), w.tensor("w"), w.exact<int>(1), w.exact<int>(4)); }},
        {"conv.find.writesOnlyRequestedResults", Expect::oneOf({miopenStatusSuccess}), [](World& w) {
             return miopenFindConvolutionForwardAlgorithm(w.handle(), w.tensor("x"), w.input("x"), w.tensor("w"), w.input("w"), w.conv(),
                                                          w.tensor("y"), w.output("y"), 1, w.exact<int>(1), w.exact<miopenConvAlgoPerf_t>(1),
                                                          w.workspace(), w.workspaceSize(), false); }},
        {"conv.getSolution.writesOnlyMaxSolutions", Expect::oneOf({miopenStatusSuccess}), [](World& w) {
             return miopenConvolutionForwardGetSolution(w.handle(), w.tensor("w"), w.tensor("x"), w.conv(), w.tensor("y"), 1,
                                                        w.exact<size_t>(1), w.exact<miopenConvSolution_t>(1)); }},
        {"tensor.getNd.exactArrays", Expect::oneOf({miopenStatusSuccess}), [](World& w) {
             return miopenGetTensorDescriptor(w.tensor("x"), w.exact<miopenDataType_t>(1), w.exact<int>(4), w.exact<int>(4)); }},
        {"pooling.getNd.requestedMoreThanRank", Expect::oneOf({miopenStatusSuccess}), [](World& w) {
             return miopenGetNdPoolingDescriptor(w.pooling(), 8, w.exact<miopenPoolingMode_t>(1), w.exact<int>(1), w.exact<int>(2), w.exact<int>(2), w.exact<int>(2)); }},
        {"pooling.ndOutputDim.arrayShorterThanRank", Expect::oneOf({kBad}), [](World& w) {
             return miopenGetPoolingNdForwardOutputDim(w.pooling(), w.tensor("x"), 2, w.exact<int>(2)); }},
        {"pooling.outputDim.hugePadOverflow", Expect::oneOf({kBad}), [](World& w) {
             const int m = std::numeric_limits<int>::max();
             const miopenStatus_t s = miopenSet2dPoolingDescriptor(w.unset<miopenPoolingDescriptor_t>(), miopenPoolingMax, 2, 2, m, m, 1, 1);
             if(s != miopenStatusSuccess)
                 return s;
             return miopenGetPoolingForwardOutputDim(w.unset<miopenPoolingDescriptor_t>(), w.tensor("x"), w.slot<int>("n"), w.slot<int>("c"), w.slot<int>("h"), w.slot<int>("w")); }},
        {"fusion.getAlgo.writesOnlyRequested", Expect::oneOf({miopenStatusSuccess}), [](World& w) {
             return miopenFusionPlanConvolutionGetAlgo(w.fusionPlan(), 1, w.exact<int>(1), w.exact<miopenConvFwdAlgorithm_t>(1)); }},
        // ---- batch normalization ---------------------------------------------------------------
        {"bn.training.scaleShapeMismatch", Expect::oneOf({kBad}), [](World& w) {
             return miopenBatchNormalizationForwardTraining(w.handle(), miopenBNSpatial, w.scalar("alpha"), w.scalar("beta"), w.tensor("x"), w.input("x"),
                                                            w.tensor("x"), w.output("y"), w.tensor("bias"), w.input("s"), w.input("b"), 0.1,
                                                            w.output("rm"), w.output("rv"), 1e-5, w.output("sm"), w.output("sv")); }},
        {"bn.training.badMode", Expect::oneOf({kBad}), [](World& w) {
             return miopenBatchNormalizationForwardTraining(w.handle(), static_cast<miopenBatchNormMode_t>(9), w.scalar("alpha"), w.scalar("beta"), w.tensor("x"), w.input("x"),
                                                            w.tensor("x"), w.output("y"), w.tensor("bn"), w.input("s"), w.input("b"), 0.1,
                                                            w.output("rm"), w.output("rv"), 1e-5, w.output("sm"), w.output("sv")); }},
        {"bn.inference.xyShapeMismatch", Expect::oneOf({kBad}), [](World& w) {
             return miopenBatchNormalizationForwardInference(w.handle(), miopenBNSpatial, w.scalar("alpha"), w.scalar("beta"), w.tensor("x"), w.input("x"),
                                                             w.tensor("y"), w.output("y"), w.tensor("bn"), w.input("s"), w.input("b"),
                                                             w.input("m"), w.input("v"), 1e-5); }},
        {"bn.inference.negativeEpsilon", Expect::oneOf({kBad}), [](World& w) {
             return miopenBatchNormalizationForwardInference(w.handle(), miopenBNSpatial, w.scalar("alpha"), w.scalar("beta"), w.tensor("x"), w.input("x"),
                                                             w.tensor("x"), w.output("y"), w.tensor("bn"), w.input("s"), w.input("b"),
                                                             w.input("m"), w.input("v"), -1.0); }},
        {"bn.inference.typeMismatch", Expect::oneOf({kBad}), [](World& w) {
             T y(miopenHalf, {2, 3, 8, 8});
             return miopenBatchNormalizationForwardInference(w.handle(), miopenBNSpatial, w.scalar("alpha"), w.scalar("beta"), w.tensor("x"), w.input("x"),
                                                             y, w.output("y"), w.tensor("bn"), w.input("s"), w.input("b"),
                                                             w.input("m"), w.input("v"), 1e-5); }},
        {"bn.backward.dxShapeMismatch", Expect::oneOf({kBad}), [](World& w) {
             return miopenBatchNormalizationBackward(w.handle(), miopenBNSpatial, w.scalar("a"), w.scalar("beta"), w.scalar("a"), w.scalar("beta"),
                                                     w.tensor("x"), w.input("x"), w.tensor("x"), w.input("dy"), w.tensor("pooled"), w.output("dx"),
                                                     w.tensor("bn"), w.input("s"), w.output("ds"), w.output("db"), 1e-5, w.input("m"), w.input("v")); }},
        {"bn.derive.badMode", Expect::oneOf({kBad}), [](World& w) {
             return miopenDeriveBNTensorDescriptor(w.unset<miopenTensorDescriptor_t>(), w.tensor("x"), static_cast<miopenBatchNormMode_t>(5)); }},
        // ---- pooling ----------------------------------------------------------------------------
        {"pooling.set2d.zeroWindow", Expect::oneOf({kBad}), [](World& w) {
             return miopenSet2dPoolingDescriptor(w.unset<miopenPoolingDescriptor_t>(), miopenPoolingMax, 0, 2, 0, 0, 2, 2); }},
        {"pooling.set2d.zeroStride", Expect::oneOf({kBad}), [](World& w) {
             return miopenSet2dPoolingDescriptor(w.unset<miopenPoolingDescriptor_t>(), miopenPoolingMax, 2, 2, 0, 0, 0, 2); }},
        {"pooling.set2d.negativePad", Expect::oneOf({kBad}), [](World& w) {
             return miopenSet2dPoolingDescriptor(w.unset<miopenPoolingDescriptor_t>(), miopenPoolingMax, 2, 2, -1, 0, 2, 2); }},
        {"pooling.set2d.badMode", Expect::oneOf({kBad}), [](World& w) {
             return miopenSet2dPoolingDescriptor(w.unset<miopenPoolingDescriptor_t>(), static_cast<miopenPoolingMode_t>(9), 2, 2, 0, 0, 2, 2); }},
        {"pooling.forward.outputShapeMismatch", Expect::oneOf({kBad}), [](World& w) {
             return miopenPoolingForward(w.handle(), w.pooling(), w.scalar("alpha"), w.tensor("x"), w.input("x"), w.scalar("beta"),
                                         w.tensor("x"), w.output("y"), false, nullptr, 0); }},
        {"pooling.forward.backwardWithoutWorkspace", Expect::oneOf({kBad}), [](World& w) {
             return miopenPoolingForward(w.handle(), w.pooling(), w.scalar("alpha"), w.tensor("x"), w.input("x"), w.scalar("beta"),
                                         w.tensor("pooled"), w.output("y"), true, nullptr, 0); }},
        {"pooling.forward.workspaceTooSmall", Expect::oneOf({kBad}), [](World& w) {
             return miopenPoolingForward(w.handle(), w.pooling(), w.scalar("alpha"), w.tensor("x"), w.input("x"), w.scalar("beta"),
                                         w.tensor("pooled"), w.output("y"), true, w.workspace(), 1); }},
        {"pooling.forward.typeMismatch", Expect::oneOf({kBad}), [](World& w) {
             T y(miopenHalf, {2, 3, 4, 4});
             return miopenPoolingForward(w.handle(), w.pooling(), w.scalar("alpha"), w.tensor("x"), w.input("x"), w.scalar("beta"),
                                         y, w.output("y"), false, nullptr, 0); }},
        // ---- activation ------------------------------------------------------------------------
        {"activation.set.badMode", Expect::oneOf({kBad}), [](World& w) {
             return miopenSetActivationDescriptor(w.unset<miopenActivationDescriptor_t>(), static_cast<miopenActivationMode_t>(99), 0, 0, 0); }},
        {"activation.forward.shapeMismatch", Expect::oneOf({kBad}), [](World& w) {
             return miopenActivationForward(w.handle(), w.activation(), w.scalar("alpha"), w.tensor("x"), w.input("x"), w.scalar("beta"), w.tensor("y"), w.output("y")); }},
        {"activation.forward.typeMismatch", Expect::oneOf({kBad}), [](World& w) {
             T y(miopenHalf, {2, 3, 8, 8});
             return miopenActivationForward(w.handle(), w.activation(), w.scalar("alpha"), w.tensor("x"), w.input("x"), w.scalar("beta"), y, w.output("y")); }},
        {"activation.backward.dyShapeMismatch", Expect::oneOf({kBad}), [](World& w) {
             return miopenActivationBackward(w.handle(), w.activation(), w.scalar("alpha"), w.tensor("x"), w.input("y"), w.tensor("pooled"), w.input("dy"),
                                             w.tensor("x"), w.input("x"), w.scalar("beta"), w.tensor("x"), w.output("dx")); }},
        // ---- softmax ----------------------------------------------------------------------------
        {"softmax.v2.badAlgorithm", Expect::oneOf({kBad}), [](World& w) {
             return miopenSoftmaxForward_V2(w.handle(), w.scalar("alpha"), w.tensor("x"), w.input("x"), w.scalar("beta"), w.tensor("x"), w.output("y"),
                                            static_cast<miopenSoftmaxAlgorithm_t>(7), MIOPEN_SOFTMAX_MODE_CHANNEL); }},
        {"softmax.v2.badMode", Expect::oneOf({kBad}), [](World& w) {
             return miopenSoftmaxForward_V2(w.handle(), w.scalar("alpha"), w.tensor("x"), w.input("x"), w.scalar("beta"), w.tensor("x"), w.output("y"),
                                            MIOPEN_SOFTMAX_ACCURATE, static_cast<miopenSoftmaxMode_t>(5)); }},
        {"softmax.forward.shapeMismatch", Expect::oneOf({kBad}), [](World& w) {
             return miopenSoftmaxForward(w.handle(), w.scalar("alpha"), w.tensor("x"), w.input("x"), w.scalar("beta"), w.tensor("pooled"), w.output("y")); }},
        {"softmax.backward.typeMismatch", Expect::oneOf({kBad}), [](World& w) {
             T dy(miopenHalf, {2, 3, 8, 8});
             return miopenSoftmaxBackward(w.handle(), w.scalar("alpha"), w.tensor("x"), w.input("y"), dy, w.input("dy"), w.scalar("beta"), w.tensor("x"), w.output("dx")); }},
        {"softmax.forward.int8NotImplemented", Expect::oneOf({miopenStatusNotImplemented}), [](World& w) {
             T x(miopenInt8, {2, 3, 8, 8});
             return miopenSoftmaxForward(w.handle(), w.scalar("alpha"), x, w.input("x"), w.scalar("beta"), x, w.output("y")); }},
        {"softmax.forward.outputAddressesAnElementTwice", Expect::oneOf({kBad}), [](World& w) {
             test::Tensor y(miopenFloat, {2, 3, 8, 8}, {192, 64, 1, 1});
             return miopenSoftmaxForward(w.handle(), w.scalar("alpha"), w.tensor("x"), w.input("x"), w.scalar("beta"), y, w.output("y")); }},
        // ---- LRN --------------------------------------------------------------------------------
        {"lrn.forward.bf16NotImplemented", Expect::oneOf({miopenStatusNotImplemented}), [](World& w) {
             T x(miopenBFloat16, {2, 3, 8, 8});
             return miopenLRNForward(w.handle(), w.lrn(), w.scalar("alpha"), x, w.input("x"), w.scalar("beta"), x, w.output("y"), false, nullptr); }},
        {"lrn.set.zeroWindow", Expect::oneOf({kBad}), [](World& w) {
             return miopenSetLRNDescriptor(w.unset<miopenLRNDescriptor_t>(), miopenLRNCrossChannel, 0, 1e-4, 0.75, 1.0); }},
        {"lrn.forward.backwardWithoutWorkspace", Expect::oneOf({kBad}), [](World& w) {
             return miopenLRNForward(w.handle(), w.lrn(), w.scalar("alpha"), w.tensor("x"), w.input("x"), w.scalar("beta"), w.tensor("x"), w.output("y"), true, nullptr); }},
        // ---- fusion -----------------------------------------------------------------------------
        {"fusion.create.badDirection", Expect::oneOf({kBad}), [](World& w) {
             return miopenCreateFusionPlan(w.slot<miopenFusionPlanDescriptor_t>("plan"), static_cast<miopenFusionDirection_t>(5), w.tensor("x")); }},
        {"fusion.execute.notCompiled", Expect::oneOf({kBad}), [](World& w) {
             return miopenExecuteFusionPlan(w.handle(), w.fusionPlan(), w.tensor("x"), w.input("x"), w.tensor("y"), w.output("y"), w.operatorArgs()); }},
        {"fusion.getOp.indexOutOfRange", Expect::oneOf({kBad}), [](World& w) {
             return miopenFusionPlanGetOp(w.fusionPlan(), 5, w.slot<miopenFusionOpDescriptor_t>("op")); }},
        {"fusion.getOp.negativeIndex", Expect::oneOf({kBad}), [](World& w) {
             return miopenFusionPlanGetOp(w.fusionPlan(), -1, w.slot<miopenFusionOpDescriptor_t>("op")); }},
        {"fusion.getAlgo.requestZero", Expect::oneOf({kBad}), [](World& w) {
             return miopenFusionPlanConvolutionGetAlgo(w.fusionPlan(), 0, w.slot<int>("n"), w.slot<miopenConvFwdAlgorithm_t>("algos")); }},
        {"fusion.compile.weightChannelMismatch", Expect::oneOf({kBad, miopenStatusUnsupportedOp}), [](World& w) {
             T wd(miopenFloat, {4, 2, 3, 3});
             miopenFusionPlanDescriptor_t plan = nullptr;
             EXPECT_MIOPEN_OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, w.tensor("x")));
             miopenFusionOpDescriptor_t op = nullptr;
             miopenStatus_t s = miopenCreateOpConvForward(plan, &op, w.conv(), wd);
             if(s == miopenStatusSuccess)
                 s = miopenCompileFusionPlan(w.handle(), plan);
             miopenDestroyFusionPlan(plan);
             return s; }},
        {"fusion.compile.unsupportedSequence", Expect::oneOf({miopenStatusUnsupportedOp}), [](World& w) {
             // A batch-norm backward operator after a convolution: no fused implementation.
             miopenFusionPlanDescriptor_t plan = nullptr;
             EXPECT_MIOPEN_OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, w.tensor("x")));
             miopenFusionOpDescriptor_t conv = nullptr, bn = nullptr;
             miopenStatus_t s = miopenCreateOpConvForward(plan, &conv, w.conv(), w.tensor("w"));
             if(s == miopenStatusSuccess)
                 s = miopenCreateOpBatchNormBackward(plan, &bn, miopenBNSpatial);
             if(s == miopenStatusSuccess)
                 s = miopenCompileFusionPlan(w.handle(), plan);
             miopenDestroyFusionPlan(plan);
             return s; }},
        {"fusion.setArgs.biasArgsOnConvOp", Expect::oneOf({kBad}), [](World& w) {
             return miopenSetOpArgsBiasForward(w.operatorArgs(), w.fusionOp(), w.scalar("alpha"), w.scalar("beta"), w.input("bias")); }},
        {"fusion.createOpBias.badMode", Expect::oneOf({kBad}), [](World& w) {
             return miopenCreateOpActivationForward(w.fusionPlan(), w.slot<miopenFusionOpDescriptor_t>("op"), static_cast<miopenActivationMode_t>(99)); }},
    };
    return kCases;
}

} // namespace bad_input
