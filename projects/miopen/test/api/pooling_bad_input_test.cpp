// Bad input to every pooling entry point: each case returns the documented status (upstream's
// where upstream checks), never crashes, and leaves every caller buffer (guarded by canaries)
// untouched.
#include "common/api_helpers.hpp"

#include <cctype>
#include <functional>
#include <string>
#include <vector>

namespace {

using test::GuardedBuffer;

class PoolDesc
{
public:
    PoolDesc() { EXPECT_MIOPEN_OK(miopenCreatePoolingDescriptor(&_d)); }
    ~PoolDesc() { miopenDestroyPoolingDescriptor(_d); }
    PoolDesc(const PoolDesc&) = delete;
    PoolDesc& operator=(const PoolDesc&) = delete;
    operator miopenPoolingDescriptor_t() const { return _d; }

private:
    miopenPoolingDescriptor_t _d = nullptr;
};

struct Fixture
{
    test::Handle h;
    PoolDesc pool;   // 2x2 max, stride 2
    PoolDesc pool3d; // 2x2x2 max, stride 2
    PoolDesc unsetPool;
    test::Tensor x{miopenFloat, {1, 2, 8, 8}, {}};
    test::Tensor y{miopenFloat, {1, 2, 4, 4}, {}};
    test::Tensor yBad{miopenFloat, {1, 2, 5, 4}, {}};
    test::Tensor yHalf{miopenHalf, {1, 2, 4, 4}, {}};
    test::Tensor x5{miopenFloat, {1, 2, 4, 4, 4}, {}};
    test::Tensor xInt8{miopenInt8, {1, 2, 8, 8}, {}};
    test::Tensor yInt8{miopenInt8, {1, 2, 4, 4}, {}};
    test::Tensor unset;
    GuardedBuffer xb{1 * 2 * 8 * 8 * 4}, yb{1 * 2 * 4 * 4 * 4}, dxb{1 * 2 * 8 * 8 * 4}, ws{1 * 2 * 4 * 4 * 8};
    float one = 1.0f, zero = 0.0f, two = 2.0f;

    Fixture()
    {
        EXPECT_MIOPEN_OK(miopenSet2dPoolingDescriptor(pool, miopenPoolingMax, 2, 2, 0, 0, 2, 2));
        const int w[3] = {2, 2, 2}, p[3] = {0, 0, 0}, s[3] = {2, 2, 2};
        EXPECT_MIOPEN_OK(miopenSetNdPoolingDescriptor(pool3d, miopenPoolingMax, 3, w, p, s));
    }
    miopenPoolingDescriptor_t wrongKind() const
    {
        // A tensor descriptor passed where a pooling descriptor is expected.
        return reinterpret_cast<miopenPoolingDescriptor_t>(static_cast<miopenTensorDescriptor_t>(x));
    }
    miopenStatus_t forward(miopenPoolingDescriptor_t p, const void* a, miopenTensorDescriptor_t xd, const void* xp,
                           const void* b, miopenTensorDescriptor_t yd, bool bwd, void* w, size_t wsz)
    {
        return miopenPoolingForward(h, p, a, xd, xp, b, yd, yb.data(), bwd, w, wsz);
    }
    miopenStatus_t backward(miopenPoolingDescriptor_t p, const void* a, miopenTensorDescriptor_t dyd,
                            miopenTensorDescriptor_t dxd, void* dxp, void* w)
    {
        return miopenPoolingBackward(h, p, a, y, yb.data(), dyd, yb.data(), x, xb.data(), &zero, dxd, dxp, w);
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
        // Lifetime.
        {"Create null", miopenStatusBadParm, [](Fixture&) { return miopenCreatePoolingDescriptor(nullptr); }},
        {"Destroy null", miopenStatusBadParm, [](Fixture&) { return miopenDestroyPoolingDescriptor(nullptr); }},
        {"Destroy wrong kind", miopenStatusBadParm, [](Fixture& f) { return miopenDestroyPoolingDescriptor(f.wrongKind()); }},
        // Index type and index mode.
        {"SetIndexType null", miopenStatusBadParm, [](Fixture&) { return miopenSetPoolingIndexType(nullptr, miopenIndexUint8); }},
        {"SetIndexType bad value", miopenStatusBadParm, [](Fixture& f) { return miopenSetPoolingIndexType(f.pool, static_cast<miopenIndexType_t>(4)); }},
        {"GetIndexType null out", miopenStatusBadParm, [](Fixture& f) { return miopenGetPoolingIndexType(f.pool, nullptr); }},
        {"GetIndexType wrong kind", miopenStatusBadParm, [](Fixture& f) { miopenIndexType_t t; return miopenGetPoolingIndexType(f.wrongKind(), &t); }},
        {"SetIndexMode bad value", miopenStatusBadParm, [](Fixture& f) {
             return miopenSetPoolingWorkSpaceIndexMode(f.pool, static_cast<miopenPoolingWorkspaceIndexMode_t>(2)); }},
        {"SetIndexMode null", miopenStatusBadParm, [](Fixture&) { return miopenSetPoolingWorkSpaceIndexMode(nullptr, miopenPoolingWorkspaceIndexMask); }},
        {"GetIndexMode null out", miopenStatusBadParm, [](Fixture& f) { return miopenGetPoolingWorkSpaceIndexMode(f.pool, nullptr); }},
        // 2-D descriptor.
        {"Set2d null", miopenStatusBadParm, [](Fixture&) { return miopenSet2dPoolingDescriptor(nullptr, miopenPoolingMax, 2, 2, 0, 0, 2, 2); }},
        {"Set2d bad mode", miopenStatusBadParm, [](Fixture& f) {
             return miopenSet2dPoolingDescriptor(f.unsetPool, static_cast<miopenPoolingMode_t>(3), 2, 2, 0, 0, 2, 2); }},
        {"Set2d zero window", miopenStatusBadParm, [](Fixture& f) { return miopenSet2dPoolingDescriptor(f.unsetPool, miopenPoolingMax, 0, 2, 0, 0, 2, 2); }},
        {"Set2d zero stride", miopenStatusBadParm, [](Fixture& f) { return miopenSet2dPoolingDescriptor(f.unsetPool, miopenPoolingMax, 2, 2, 0, 0, 2, 0); }},
        {"Set2d negative pad", miopenStatusBadParm, [](Fixture& f) { return miopenSet2dPoolingDescriptor(f.unsetPool, miopenPoolingMax, 2, 2, -1, 0, 2, 2); }},
        {"Get2d unset", miopenStatusNotInitialized, [](Fixture& f) {
             miopenPoolingMode_t m; int v; return miopenGet2dPoolingDescriptor(f.unsetPool, &m, &v, &v, &v, &v, &v, &v); }},
        {"Get2d null out", miopenStatusBadParm, [](Fixture& f) {
             int v; return miopenGet2dPoolingDescriptor(f.pool, nullptr, &v, &v, &v, &v, &v, &v); }},
        {"Get2d of 3-D", miopenStatusBadParm, [](Fixture& f) {
             miopenPoolingMode_t m; int v; return miopenGet2dPoolingDescriptor(f.pool3d, &m, &v, &v, &v, &v, &v, &v); }},
        {"OutputDim unset pooling", miopenStatusNotInitialized, [](Fixture& f) { int v; return miopenGetPoolingForwardOutputDim(f.unsetPool, f.x, &v, &v, &v, &v); }},
        {"OutputDim unset tensor", miopenStatusNotInitialized, [](Fixture& f) { int v; return miopenGetPoolingForwardOutputDim(f.pool, f.unset, &v, &v, &v, &v); }},
        {"OutputDim 5-D tensor", miopenStatusBadParm, [](Fixture& f) { int v; return miopenGetPoolingForwardOutputDim(f.pool, f.x5, &v, &v, &v, &v); }},
        {"OutputDim null out", miopenStatusBadParm, [](Fixture& f) { int v; return miopenGetPoolingForwardOutputDim(f.pool, f.x, &v, nullptr, &v, &v); }},
        // N-D descriptor.
        {"SetNd rank 1", miopenStatusBadParm, [](Fixture& f) { int a[1] = {2}; return miopenSetNdPoolingDescriptor(f.unsetPool, miopenPoolingMax, 1, a, a, a); }},
        {"SetNd rank 4", miopenStatusBadParm, [](Fixture& f) { int a[4] = {2, 2, 2, 2}; return miopenSetNdPoolingDescriptor(f.unsetPool, miopenPoolingMax, 4, a, a, a); }},
        {"SetNd null arrays", miopenStatusBadParm, [](Fixture& f) { return miopenSetNdPoolingDescriptor(f.unsetPool, miopenPoolingMax, 2, nullptr, nullptr, nullptr); }},
        {"SetNd bad mode", miopenStatusBadParm, [](Fixture& f) {
             int a[2] = {2, 2}; return miopenSetNdPoolingDescriptor(f.unsetPool, static_cast<miopenPoolingMode_t>(-1), 2, a, a, a); }},
        {"GetNd negative request", miopenStatusBadParm, [](Fixture& f) { int v[3]; return miopenGetNdPoolingDescriptor(f.pool, -1, nullptr, v, v, v, v); }},
        {"GetNd unset", miopenStatusNotInitialized, [](Fixture& f) { int v[3]; return miopenGetNdPoolingDescriptor(f.unsetPool, 2, nullptr, v, v, v, v); }},
        {"NdOutputDim dims mismatch", miopenStatusBadParm, [](Fixture& f) { int v[5]; return miopenGetPoolingNdForwardOutputDim(f.pool, f.x, 5, v); }},
        {"NdOutputDim rank mismatch", miopenStatusBadParm, [](Fixture& f) { int v[5]; return miopenGetPoolingNdForwardOutputDim(f.pool3d, f.x, 4, v); }},
        {"NdOutputDim null array", miopenStatusBadParm, [](Fixture& f) { return miopenGetPoolingNdForwardOutputDim(f.pool, f.x, 4, nullptr); }},
        // Workspace sizes.
        {"WorkSpaceSize null out", miopenStatusBadParm, [](Fixture& f) { return miopenPoolingGetWorkSpaceSize(f.y, nullptr); }},
        {"WorkSpaceSize unset tensor", miopenStatusNotInitialized, [](Fixture& f) { size_t s; return miopenPoolingGetWorkSpaceSize(f.unset, &s); }},
        {"WorkSpaceSizeV2 null pooling", miopenStatusBadParm, [](Fixture& f) { size_t s; return miopenPoolingGetWorkSpaceSizeV2(nullptr, f.y, &s); }},
        {"WorkSpaceSizeV2 unset pooling", miopenStatusNotInitialized, [](Fixture& f) { size_t s; return miopenPoolingGetWorkSpaceSizeV2(f.unsetPool, f.y, &s); }},
        {"WorkSpaceSizeV2 null out", miopenStatusBadParm, [](Fixture& f) { return miopenPoolingGetWorkSpaceSizeV2(f.pool, f.y, nullptr); }},
        // Forward.
        {"Forward null handle", miopenStatusBadParm, [](Fixture& f) {
             return miopenPoolingForward(nullptr, f.pool, &f.one, f.x, f.xb.data(), &f.zero, f.y, f.yb.data(), false, nullptr, 0); }},
        {"Forward unset pooling", miopenStatusNotInitialized, [](Fixture& f) { return f.forward(f.unsetPool, &f.one, f.x, f.xb.data(), &f.zero, f.y, false, nullptr, 0); }},
        {"Forward wrong-kind pooling", miopenStatusBadParm, [](Fixture& f) { return f.forward(f.wrongKind(), &f.one, f.x, f.xb.data(), &f.zero, f.y, false, nullptr, 0); }},
        {"Forward null alpha", miopenStatusBadParm, [](Fixture& f) { return f.forward(f.pool, nullptr, f.x, f.xb.data(), &f.zero, f.y, false, nullptr, 0); }},
        {"Forward alpha 2", miopenStatusUnknownError, [](Fixture& f) { return f.forward(f.pool, &f.two, f.x, f.xb.data(), &f.zero, f.y, false, nullptr, 0); }},
        {"Forward beta 1", miopenStatusUnknownError, [](Fixture& f) { return f.forward(f.pool, &f.one, f.x, f.xb.data(), &f.one, f.y, false, nullptr, 0); }},
        {"Forward null x", miopenStatusBadParm, [](Fixture& f) { return f.forward(f.pool, &f.one, f.x, nullptr, &f.zero, f.y, false, nullptr, 0); }},
        {"Forward null y", miopenStatusBadParm, [](Fixture& f) {
             return miopenPoolingForward(f.h, f.pool, &f.one, f.x, f.xb.data(), &f.zero, f.y, nullptr, false, nullptr, 0); }},
        {"Forward unset x", miopenStatusNotInitialized, [](Fixture& f) { return f.forward(f.pool, &f.one, f.unset, f.xb.data(), &f.zero, f.y, false, nullptr, 0); }},
        {"Forward wrong output size", miopenStatusBadParm, [](Fixture& f) { return f.forward(f.pool, &f.one, f.x, f.xb.data(), &f.zero, f.yBad, false, nullptr, 0); }},
        {"Forward wrong output type", miopenStatusBadParm, [](Fixture& f) { return f.forward(f.pool, &f.one, f.x, f.xb.data(), &f.zero, f.yHalf, false, nullptr, 0); }},
        {"Forward 3-D pooling of 4-D x", miopenStatusBadParm, [](Fixture& f) { return f.forward(f.pool3d, &f.one, f.x, f.xb.data(), &f.zero, f.y, false, nullptr, 0); }},
        {"Forward int8", miopenStatusNotImplemented, [](Fixture& f) { return f.forward(f.pool, &f.one, f.xInt8, f.xb.data(), &f.zero, f.yInt8, false, nullptr, 0); }},
        {"Forward null workspace", miopenStatusBadParm, [](Fixture& f) { return f.forward(f.pool, &f.one, f.x, f.xb.data(), &f.zero, f.y, true, nullptr, 0); }},
        {"Forward workspace too small", miopenStatusBadParm, [](Fixture& f) { return f.forward(f.pool, &f.one, f.x, f.xb.data(), &f.zero, f.y, true, f.ws.data(), 31); }},
        // Backward.
        {"Backward null handle", miopenStatusBadParm, [](Fixture& f) {
             return miopenPoolingBackward(nullptr, f.pool, &f.one, f.y, f.yb.data(), f.y, f.yb.data(), f.x, f.xb.data(), &f.zero, f.x, f.dxb.data(), f.ws.data()); }},
        {"Backward unset pooling", miopenStatusNotInitialized, [](Fixture& f) { return f.backward(f.unsetPool, &f.one, f.y, f.x, f.dxb.data(), f.ws.data()); }},
        {"Backward alpha 2", miopenStatusUnknownError, [](Fixture& f) { return f.backward(f.pool, &f.two, f.y, f.x, f.dxb.data(), f.ws.data()); }},
        {"Backward null beta", miopenStatusBadParm, [](Fixture& f) {
             return miopenPoolingBackward(f.h, f.pool, &f.one, f.y, f.yb.data(), f.y, f.yb.data(), f.x, f.xb.data(), nullptr, f.x, f.dxb.data(), f.ws.data()); }},
        {"Backward null dx", miopenStatusBadParm, [](Fixture& f) { return f.backward(f.pool, &f.one, f.y, f.x, nullptr, f.ws.data()); }},
        {"Backward null dy", miopenStatusBadParm, [](Fixture& f) {
             return miopenPoolingBackward(f.h, f.pool, &f.one, f.y, f.yb.data(), f.y, nullptr, f.x, f.xb.data(), &f.zero, f.x, f.dxb.data(), f.ws.data()); }},
        {"Backward null workspace", miopenStatusBadParm, [](Fixture& f) { return f.backward(f.pool, &f.one, f.y, f.x, f.dxb.data(), nullptr); }},
        {"Backward dy size", miopenStatusBadParm, [](Fixture& f) { return f.backward(f.pool, &f.one, f.yBad, f.x, f.dxb.data(), f.ws.data()); }},
        {"Backward dx type", miopenStatusBadParm, [](Fixture& f) { return f.backward(f.pool, &f.one, f.yHalf, f.x, f.dxb.data(), f.ws.data()); }},
        {"Backward unset dx", miopenStatusNotInitialized, [](Fixture& f) { return f.backward(f.pool, &f.one, f.y, f.unset, f.dxb.data(), f.ws.data()); }},
    };
    return kCases;
}

class PoolingBadInput : public ::testing::TestWithParam<std::size_t>
{
};

TEST_P(PoolingBadInput, ReturnsStatusAndWritesNothing)
{
    const BadCase& c = cases()[GetParam()];
    Fixture f;
    const auto xs = f.xb.snapshot(), ys = f.yb.snapshot(), dxs = f.dxb.snapshot(), wss = f.ws.snapshot();
    EXPECT_EQ(c.call(f), c.expected) << c.name;
    EXPECT_TRUE(f.xb.guardsIntact() && f.yb.guardsIntact() && f.dxb.guardsIntact() && f.ws.guardsIntact()) << c.name;
    EXPECT_EQ(f.xb.snapshot(), xs) << c.name;
    EXPECT_EQ(f.yb.snapshot(), ys) << c.name;
    EXPECT_EQ(f.dxb.snapshot(), dxs) << c.name;
    EXPECT_EQ(f.ws.snapshot(), wss) << c.name;
}

std::string badCaseName(const ::testing::TestParamInfo<std::size_t>& info)
{
    std::string n = cases()[info.param].name;
    for(auto& ch : n)
        if(!std::isalnum(static_cast<unsigned char>(ch)))
            ch = '_';
    return n;
}

INSTANTIATE_TEST_SUITE_P(Table, PoolingBadInput, ::testing::Range<std::size_t>(0, cases().size()), badCaseName);

} // namespace
