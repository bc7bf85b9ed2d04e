// Bad input through the public C API: each case returns upstream's status, never crashes, and
// leaves every caller buffer (guarded by canaries) untouched.
#include "common/api_helpers.hpp"

#include <functional>
#include <limits>
#include <string>

namespace {

using test::GuardedBuffer;

struct Fixture
{
    test::Handle h;
    test::Tensor x{miopenFloat, {2, 3, 8, 8}, {}};
    test::Tensor w{miopenFloat, {4, 3, 3, 3}, {}};
    test::Tensor y{miopenFloat, {2, 4, 6, 6}, {}};
    test::Tensor yBad{miopenFloat, {2, 4, 5, 6}, {}};   // wrong output size
    test::Tensor yHalf{miopenHalf, {2, 4, 6, 6}, {}};   // wrong output type
    test::Tensor unset;                                 // created, never set
    test::Conv conv;
    test::Conv convUnset;
    GuardedBuffer xb{2 * 3 * 8 * 8 * 4}, wb{4 * 3 * 3 * 3 * 4}, yb{2 * 4 * 6 * 6 * 4}, ws{1 << 16};
    float one = 1.0f, zero = 0.0f;

    Fixture()
    {
        EXPECT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 0, 0, 1, 1, 1, 1));
    }
    miopenTensorDescriptor_t wrongKind() const
    {
        // A convolution descriptor passed where a tensor descriptor is expected.
        return reinterpret_cast<miopenTensorDescriptor_t>(static_cast<miopenConvolutionDescriptor_t>(conv));
    }
};

struct BadCase
{
    const char* name;
    miopenStatus_t expected;
    std::function<miopenStatus_t(Fixture&)> call;
};

const std::vector<BadCase>& cases()
{
    static const std::vector<BadCase> kCases = {
        // Handle family.
        {"Create null", miopenStatusBadParm, [](Fixture&) { return miopenCreate(nullptr); }},
        {"CreateWithStream null", miopenStatusBadParm, [](Fixture&) { return miopenCreateWithStream(nullptr, nullptr); }},
        {"Destroy null", miopenStatusBadParm, [](Fixture&) { return miopenDestroy(nullptr); }},
        {"SetStream null handle", miopenStatusBadParm, [](Fixture&) { return miopenSetStream(nullptr, nullptr); }},
        {"GetStream null out", miopenStatusBadParm, [](Fixture& f) { return miopenGetStream(f.h, nullptr); }},
        {"GetKernelTime null out", miopenStatusBadParm, [](Fixture& f) { return miopenGetKernelTime(f.h, nullptr); }},
        {"GetKernelTime null handle", miopenStatusBadParm, [](Fixture&) { float t; return miopenGetKernelTime(nullptr, &t); }},
        {"EnableProfiling null", miopenStatusBadParm, [](Fixture&) { return miopenEnableProfiling(nullptr, true); }},
        {"GetVersion null", miopenStatusBadParm, [](Fixture&) { size_t a; return miopenGetVersion(&a, nullptr, &a); }},
        {"SetAllocator null handle", miopenStatusBadParm, [](Fixture&) { return miopenSetAllocator(nullptr, nullptr, nullptr, nullptr); }},
        // Tensor family.
        {"CreateTensor null", miopenStatusBadParm, [](Fixture&) { return miopenCreateTensorDescriptor(nullptr); }},
        {"Set4d null desc", miopenStatusBadParm, [](Fixture&) { return miopenSet4dTensorDescriptor(nullptr, miopenFloat, 1, 1, 1, 1); }},
        {"Set4d zero dim", miopenStatusBadParm, [](Fixture& f) { return miopenSet4dTensorDescriptor(f.unset, miopenFloat, 1, 0, 1, 1); }},
        {"Set4d negative dim", miopenStatusBadParm, [](Fixture& f) { return miopenSet4dTensorDescriptor(f.unset, miopenFloat, 1, -3, 1, 1); }},
        {"Set4d bad type", miopenStatusBadParm, [](Fixture& f) { return miopenSet4dTensorDescriptor(f.unset, static_cast<miopenDataType_t>(4), 1, 1, 1, 1); }},
        {"Set4d wrong kind", miopenStatusBadParm, [](Fixture& f) { return miopenSet4dTensorDescriptor(f.wrongKind(), miopenFloat, 1, 1, 1, 1); }},
        {"Set4dEx zero stride", miopenStatusBadParm, [](Fixture& f) { return miopenSet4dTensorDescriptorEx(f.unset, miopenFloat, 1, 1, 1, 1, 1, 1, 0, 1); }},
        {"SetTensor rank 0", miopenStatusBadParm, [](Fixture& f) { int d = 1; return miopenSetTensorDescriptor(f.unset, miopenFloat, 0, &d, nullptr); }},
        {"SetTensor rank 9", miopenStatusBadParm, [](Fixture& f) { int d[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}; return miopenSetTensorDescriptor(f.unset, miopenFloat, 9, d, nullptr); }},
        {"SetTensor null dims", miopenStatusBadParm, [](Fixture& f) { return miopenSetTensorDescriptor(f.unset, miopenFloat, 2, nullptr, nullptr); }},
        {"SetTensorV2 overflow", miopenStatusBadParm, [](Fixture& f) {
             const size_t d[3] = {size_t(1) << 40, size_t(1) << 40, 4};
             return miopenSetTensorDescriptorV2(f.unset, miopenFloat, 3, d, nullptr); }},
        {"SetTensorV2 bytes overflow", miopenStatusBadParm, [](Fixture& f) {
             const size_t d[1] = {std::numeric_limits<size_t>::max() / 2};
             return miopenSetTensorDescriptorV2(f.unset, miopenFloat, 1, d, nullptr); }},
        {"SetNdLayout bad count", miopenStatusBadParm, [](Fixture& f) { int l[3] = {1, 2, 3}; return miopenSetNdTensorDescriptorWithLayout(f.unset, miopenFloat, miopenTensorNCHW, l, 3); }},
        {"Get4d unset", miopenStatusNotInitialized, [](Fixture& f) {
             miopenDataType_t t; int v; return miopenGet4dTensorDescriptor(f.unset, &t, &v, &v, &v, &v, &v, &v, &v, &v); }},
        {"Get4d null out", miopenStatusBadParm, [](Fixture& f) {
             int v; return miopenGet4dTensorDescriptor(f.x, nullptr, &v, &v, &v, &v, &v, &v, &v, &v); }},
        {"GetTensorSize unset", miopenStatusNotInitialized, [](Fixture& f) { int s; return miopenGetTensorDescriptorSize(f.unset, &s); }},
        {"GetTensorSize null", miopenStatusBadParm, [](Fixture& f) { return miopenGetTensorDescriptorSize(f.x, nullptr); }},
        {"GetNumBytes wrong kind", miopenStatusBadParm, [](Fixture& f) { size_t b; return miopenGetTensorNumBytes(f.wrongKind(), &b); }},
        {"DestroyTensor null", miopenStatusBadParm, [](Fixture&) { return miopenDestroyTensorDescriptor(nullptr); }},
        {"OpTensor null handle", miopenStatusBadParm, [](Fixture& f) {
             return miopenOpTensor(nullptr, miopenTensorOpAdd, &f.one, f.y, f.yb.data(), &f.one, f.y, f.yb.data(), &f.zero, f.y, f.yb.data()); }},
        {"OpTensor shape mismatch", miopenStatusBadParm, [](Fixture& f) {
             return miopenOpTensor(f.h, miopenTensorOpAdd, &f.one, f.x, f.xb.data(), &f.one, f.y, f.yb.data(), &f.zero, f.y, f.yb.data()); }},
        {"OpTensor type mismatch", miopenStatusBadParm, [](Fixture& f) {
             return miopenOpTensor(f.h, miopenTensorOpAdd, &f.one, f.yHalf, f.yb.data(), &f.one, f.y, f.yb.data(), &f.zero, f.y, f.yb.data()); }},
        {"SetTensor null data", miopenStatusBadParm, [](Fixture& f) { return miopenSetTensor(f.h, f.y, nullptr, &f.one); }},
        {"ScaleTensor unset", miopenStatusNotInitialized, [](Fixture& f) { return miopenScaleTensor(f.h, f.unset, f.yb.data(), &f.one); }},
        {"Transform shape mismatch", miopenStatusBadParm, [](Fixture& f) {
             return miopenTransformTensor(f.h, &f.one, f.x, f.xb.data(), &f.zero, f.y, f.yb.data()); }},
        // Convolution descriptors.
        {"CreateConv null", miopenStatusBadParm, [](Fixture&) { return miopenCreateConvolutionDescriptor(nullptr); }},
        {"InitConv negative pad", miopenStatusBadParm, [](Fixture& f) { return miopenInitConvolutionDescriptor(f.convUnset, miopenConvolution, -1, 0, 1, 1, 1, 1); }},
        {"InitConv zero stride", miopenStatusBadParm, [](Fixture& f) { return miopenInitConvolutionDescriptor(f.convUnset, miopenConvolution, 0, 0, 0, 1, 1, 1); }},
        {"InitConv zero dilation", miopenStatusBadParm, [](Fixture& f) { return miopenInitConvolutionDescriptor(f.convUnset, miopenConvolution, 0, 0, 1, 1, 1, 0); }},
        {"InitConv bad mode", miopenStatusBadParm, [](Fixture& f) { return miopenInitConvolutionDescriptor(f.convUnset, static_cast<miopenConvolutionMode_t>(7), 0, 0, 1, 1, 1, 1); }},
        {"InitConvNd rank 4", miopenStatusBadParm, [](Fixture& f) { int a[4] = {0, 0, 0, 0}; return miopenInitConvolutionNdDescriptor(f.convUnset, 4, a, a, a, miopenConvolution); }},
        {"InitConvNd null arrays", miopenStatusBadParm, [](Fixture& f) { return miopenInitConvolutionNdDescriptor(f.convUnset, 2, nullptr, nullptr, nullptr, miopenConvolution); }},
        {"GetConv unset", miopenStatusNotInitialized, [](Fixture& f) {
             miopenConvolutionMode_t m; int v; return miopenGetConvolutionDescriptor(f.convUnset, &m, &v, &v, &v, &v, &v, &v); }},
        {"GetSpatialDim null", miopenStatusBadParm, [](Fixture& f) { return miopenGetConvolutionSpatialDim(f.conv, nullptr); }},
        {"OutputDim unset tensor", miopenStatusNotInitialized, [](Fixture& f) { int v; return miopenGetConvolutionForwardOutputDim(f.conv, f.unset, f.w, &v, &v, &v, &v); }},
        {"OutputDim channel mismatch", miopenStatusBadParm, [](Fixture& f) { int v; return miopenGetConvolutionForwardOutputDim(f.conv, f.y, f.w, &v, &v, &v, &v); }},
        {"OutputDim wrong kind", miopenStatusBadParm, [](Fixture& f) { int v; return miopenGetConvolutionForwardOutputDim(f.conv, f.wrongKind(), f.w, &v, &v, &v, &v); }},
        {"TransposePadding rank", miopenStatusBadParm, [](Fixture& f) { int a[3] = {0, 0, 0}; return miopenSetTransposeConvNdOutputPadding(f.conv, 3, a); }},
        {"DestroyConv null", miopenStatusBadParm, [](Fixture&) { return miopenDestroyConvolutionDescriptor(nullptr); }},
        // Convolution execution.
        {"Forward null handle", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForward(nullptr, &f.one, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, miopenConvolutionFwdAlgoDirect, &f.zero, f.y, f.yb.data(), nullptr, 0); }},
        {"Forward null alpha", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForward(f.h, nullptr, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, miopenConvolutionFwdAlgoDirect, &f.zero, f.y, f.yb.data(), nullptr, 0); }},
        {"Forward null x", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForward(f.h, &f.one, f.x, nullptr, f.w, f.wb.data(), f.conv, miopenConvolutionFwdAlgoDirect, &f.zero, f.y, f.yb.data(), nullptr, 0); }},
        {"Forward wrong output size", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForward(f.h, &f.one, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, miopenConvolutionFwdAlgoDirect, &f.zero, f.yBad, f.yb.data(), nullptr, 0); }},
        {"Forward wrong output type", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForward(f.h, &f.one, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, miopenConvolutionFwdAlgoDirect, &f.zero, f.yHalf, f.yb.data(), nullptr, 0); }},
        {"Forward unset conv", miopenStatusNotInitialized, [](Fixture& f) {
             return miopenConvolutionForward(f.h, &f.one, f.x, f.xb.data(), f.w, f.wb.data(), f.convUnset, miopenConvolutionFwdAlgoDirect, &f.zero, f.y, f.yb.data(), nullptr, 0); }},
        {"Forward unset tensor", miopenStatusNotInitialized, [](Fixture& f) {
             return miopenConvolutionForward(f.h, &f.one, f.unset, f.xb.data(), f.w, f.wb.data(), f.conv, miopenConvolutionFwdAlgoDirect, &f.zero, f.y, f.yb.data(), nullptr, 0); }},
        {"Forward bad algo", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForward(f.h, &f.one, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, static_cast<miopenConvFwdAlgorithm_t>(9), &f.zero, f.y, f.yb.data(), nullptr, 0); }},
        {"Forward GEMM without workspace", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForward(f.h, &f.one, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, miopenConvolutionFwdAlgoGEMM, &f.zero, f.y, f.yb.data(), nullptr, 0); }},
        {"BackwardData mismatched", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionBackwardData(f.h, &f.one, f.yBad, f.yb.data(), f.w, f.wb.data(), f.conv, miopenConvolutionBwdDataAlgoDirect, &f.zero, f.x, f.xb.data(), nullptr, 0); }},
        {"BackwardWeights wrong kind", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionBackwardWeights(f.h, &f.one, f.y, f.yb.data(), f.wrongKind(), f.xb.data(), f.conv, miopenConvolutionBwdWeightsAlgoDirect, &f.zero, f.w, f.wb.data(), nullptr, 0); }},
        {"Find requestAlgoCount 0", miopenStatusBadParm, [](Fixture& f) {
             int n; miopenConvAlgoPerf_t p;
             return miopenFindConvolutionForwardAlgorithm(f.h, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, f.y, f.yb.data(), 0, &n, &p, f.ws.data(), f.ws.size(), false); }},
        {"Find null returned count", miopenStatusBadParm, [](Fixture& f) {
             miopenConvAlgoPerf_t p;
             return miopenFindConvolutionForwardAlgorithm(f.h, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, f.y, f.yb.data(), 1, nullptr, &p, f.ws.data(), f.ws.size(), false); }},
        {"WorkspaceSize null out", miopenStatusBadParm, [](Fixture& f) { return miopenConvolutionForwardGetWorkSpaceSize(f.h, f.w, f.x, f.conv, f.y, nullptr); }},
        {"WorkspaceSize swapped descriptors", miopenStatusBadParm, [](Fixture& f) {
             size_t s; return miopenConvolutionForwardGetWorkSpaceSize(f.h, f.x, f.w, f.conv, f.y, &s); }},
        {"SolutionCount null", miopenStatusBadParm, [](Fixture& f) { return miopenConvolutionForwardGetSolutionCount(f.h, f.w, f.x, f.conv, f.y, nullptr); }},
        {"GetSolution max 0", miopenStatusBadParm, [](Fixture& f) {
             size_t n; miopenConvSolution_t s; return miopenConvolutionForwardGetSolution(f.h, f.w, f.x, f.conv, f.y, 0, &n, &s); }},
        {"Immediate solution 0", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForwardImmediate(f.h, f.w, f.wb.data(), f.x, f.xb.data(), f.conv, f.y, f.yb.data(), nullptr, 0, 0); }},
        {"Immediate unknown solution", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForwardImmediate(f.h, f.w, f.wb.data(), f.x, f.xb.data(), f.conv, f.y, f.yb.data(), nullptr, 0, 999999); }},
        {"Immediate wrong-direction solution", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForwardImmediate(f.h, f.w, f.wb.data(), f.x, f.xb.data(), f.conv, f.y, f.yb.data(), nullptr, 0, 86); }},
        {"Immediate workspace too small", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForwardImmediate(f.h, f.w, f.wb.data(), f.x, f.xb.data(), f.conv, f.y, f.yb.data(), f.ws.data(), 8, 91); }},
        {"CompileSolution unknown", miopenStatusBadParm, [](Fixture& f) { return miopenConvolutionBackwardDataCompileSolution(f.h, f.y, f.w, f.conv, f.x, 12345); }},
        {"SolutionWorkspace null", miopenStatusBadParm, [](Fixture& f) { return miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(f.h, f.y, f.x, f.conv, f.w, 87, nullptr); }},
        {"ForwardBias wrong bias shape", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionForwardBias(f.h, &f.one, f.y, f.yb.data(), &f.zero, f.y, f.yb.data()); }},
        {"BackwardBias null db", miopenStatusBadParm, [](Fixture& f) {
             test::Tensor b(miopenFloat, {1, 4, 1, 1}, {});
             return miopenConvolutionBackwardBias(f.h, &f.one, f.y, f.yb.data(), &f.zero, b, nullptr); }},
    };
    return kCases;
}

class BadInput : public ::testing::TestWithParam<std::size_t>
{
};

TEST_P(BadInput, ReturnsStatusAndWritesNothing)
{
    const BadCase& c = cases()[GetParam()];
    Fixture f;
    const auto xs = f.xb.snapshot(), wss = f.wb.snapshot(), ys = f.yb.snapshot(), works = f.ws.snapshot();
    EXPECT_EQ(c.call(f), c.expected) << c.name;
    EXPECT_TRUE(f.xb.guardsIntact() && f.wb.guardsIntact() && f.yb.guardsIntact() && f.ws.guardsIntact()) << c.name;
    EXPECT_EQ(f.xb.snapshot(), xs) << c.name;
    EXPECT_EQ(f.wb.snapshot(), wss) << c.name;
    EXPECT_EQ(f.yb.snapshot(), ys) << c.name;
    EXPECT_EQ(f.ws.snapshot(), works) << c.name;
}

std::string badCaseName(const ::testing::TestParamInfo<std::size_t>& info)
{
    std::string n = cases()[info.param].name;
    for(auto& ch : n)
        if(!std::isalnum(static_cast<unsigned char>(ch)))
            ch = '_';
    return n;
}

INSTANTIATE_TEST_SUITE_P(Table, BadInput, ::testing::Range<std::size_t>(0, cases().size()), badCaseName);

// The table is the floor; say how many cases it holds.
TEST(BadInputTable, CaseCount)
{
    EXPECT_GE(cases().size(), 70u);
    std::printf("bad-input cases: %zu\n", cases().size());
}

} // namespace
