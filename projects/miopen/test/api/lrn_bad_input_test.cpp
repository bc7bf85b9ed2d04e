// Bad input to every LRN entry point: each case returns the documented status (upstream's
// where upstream checks), never crashes, and leaves every caller buffer (guarded by canaries)
// untouched.
#include "common/api_helpers.hpp"

#include <cctype>
#include <functional>
#include <string>
#include <vector>

namespace {

using test::GuardedBuffer;

class LrnDesc
{
public:
    LrnDesc() { EXPECT_MIOPEN_OK(miopenCreateLRNDescriptor(&_d)); }
    ~LrnDesc() { miopenDestroyLRNDescriptor(_d); }
    LrnDesc(const LrnDesc&) = delete;
    LrnDesc& operator=(const LrnDesc&) = delete;
    operator miopenLRNDescriptor_t() const { return _d; }

private:
    miopenLRNDescriptor_t _d = nullptr;
};

struct Fixture
{
    test::Handle h;
    LrnDesc lrn, lrnK0, unsetLrn;
    test::Tensor x{miopenFloat, {1, 3, 4, 4}, {}};
    test::Tensor xBad{miopenFloat, {1, 3, 4, 5}, {}};
    test::Tensor xHalf{miopenHalf, {1, 3, 4, 4}, {}};
    test::Tensor xBf16{miopenBFloat16, {1, 3, 4, 4}, {}};
    test::Tensor x5{miopenFloat, {1, 3, 2, 2, 4}, {}};
    test::Tensor unset;
    GuardedBuffer xb{48 * 4}, yb{48 * 4}, dxb{48 * 4}, ws{48 * 4};
    float one = 1.0f, zero = 0.0f;

    Fixture()
    {
        EXPECT_MIOPEN_OK(miopenSetLRNDescriptor(lrn, miopenLRNCrossChannel, 3, 1e-2, 0.75, 1.0));
        EXPECT_MIOPEN_OK(miopenSetLRNDescriptor(lrnK0, miopenLRNWithinChannel, 3, 1e-2, 0.75, 0.0));
    }
    miopenLRNDescriptor_t wrongKind() const
    {
        return reinterpret_cast<miopenLRNDescriptor_t>(static_cast<miopenTensorDescriptor_t>(x));
    }
    miopenStatus_t fwd(miopenLRNDescriptor_t d, miopenTensorDescriptor_t xd, miopenTensorDescriptor_t yd, bool bwd, void* w)
    {
        return miopenLRNForward(h, d, &one, xd, xb.data(), &zero, yd, yb.data(), bwd, w);
    }
    miopenStatus_t bwd(miopenLRNDescriptor_t d, miopenTensorDescriptor_t yd, miopenTensorDescriptor_t dyd,
                       miopenTensorDescriptor_t dxd, const void* w)
    {
        return miopenLRNBackward(h, d, &one, yd, yb.data(), dyd, yb.data(), x, xb.data(), &zero, dxd, dxb.data(), w);
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
        {"Create null", miopenStatusBadParm, [](Fixture&) { return miopenCreateLRNDescriptor(nullptr); }},
        {"Destroy null", miopenStatusBadParm, [](Fixture&) { return miopenDestroyLRNDescriptor(nullptr); }},
        {"Destroy wrong kind", miopenStatusBadParm, [](Fixture& f) { return miopenDestroyLRNDescriptor(f.wrongKind()); }},
        {"Set null", miopenStatusBadParm, [](Fixture&) { return miopenSetLRNDescriptor(nullptr, miopenLRNCrossChannel, 3, 1, 1, 1); }},
        {"Set bad mode", miopenStatusBadParm, [](Fixture& f) { return miopenSetLRNDescriptor(f.unsetLrn, static_cast<miopenLRNMode_t>(2), 3, 1, 1, 1); }},
        {"Set zero window", miopenStatusBadParm, [](Fixture& f) { return miopenSetLRNDescriptor(f.unsetLrn, miopenLRNCrossChannel, 0, 1, 1, 1); }},
        {"Get unset", miopenStatusNotInitialized, [](Fixture& f) {
             miopenLRNMode_t m; unsigned n; double a; return miopenGetLRNDescriptor(f.unsetLrn, &m, &n, &a, &a, &a); }},
        {"Get null out", miopenStatusBadParm, [](Fixture& f) {
             miopenLRNMode_t m; double a; return miopenGetLRNDescriptor(f.lrn, &m, nullptr, &a, &a, &a); }},
        {"Get wrong kind", miopenStatusBadParm, [](Fixture& f) {
             miopenLRNMode_t m; unsigned n; double a; return miopenGetLRNDescriptor(f.wrongKind(), &m, &n, &a, &a, &a); }},
        {"WorkSpaceSize null out", miopenStatusBadParm, [](Fixture& f) { return miopenLRNGetWorkSpaceSize(f.x, nullptr); }},
        {"WorkSpaceSize unset", miopenStatusNotInitialized, [](Fixture& f) { size_t s; return miopenLRNGetWorkSpaceSize(f.unset, &s); }},
        {"WorkSpaceSize null desc", miopenStatusBadParm, [](Fixture&) { size_t s; return miopenLRNGetWorkSpaceSize(nullptr, &s); }},
        // Forward.
        {"Forward null handle", miopenStatusBadParm, [](Fixture& f) {
             return miopenLRNForward(nullptr, f.lrn, &f.one, f.x, f.xb.data(), &f.zero, f.x, f.yb.data(), false, nullptr); }},
        {"Forward unset LRN", miopenStatusNotInitialized, [](Fixture& f) { return f.fwd(f.unsetLrn, f.x, f.x, false, nullptr); }},
        {"Forward null x", miopenStatusBadParm, [](Fixture& f) {
             return miopenLRNForward(f.h, f.lrn, &f.one, f.x, nullptr, &f.zero, f.x, f.yb.data(), false, nullptr); }},
        {"Forward null y", miopenStatusBadParm, [](Fixture& f) {
             return miopenLRNForward(f.h, f.lrn, &f.one, f.x, f.xb.data(), &f.zero, f.x, nullptr, false, nullptr); }},
        {"Forward lengths mismatch", miopenStatusBadParm, [](Fixture& f) { return f.fwd(f.lrn, f.x, f.xBad, false, nullptr); }},
        {"Forward type mismatch", miopenStatusBadParm, [](Fixture& f) { return f.fwd(f.lrn, f.x, f.xHalf, false, nullptr); }},
        {"Forward bf16", miopenStatusNotImplemented, [](Fixture& f) { return f.fwd(f.lrn, f.xBf16, f.xBf16, false, nullptr); }},
        {"Forward 5-D", miopenStatusBadParm, [](Fixture& f) { return f.fwd(f.lrn, f.x5, f.x5, false, nullptr); }},
        {"Forward K zero", miopenStatusUnknownError, [](Fixture& f) { return f.fwd(f.lrnK0, f.x, f.x, false, nullptr); }},
        {"Forward null workspace", miopenStatusBadParm, [](Fixture& f) { return f.fwd(f.lrn, f.x, f.x, true, nullptr); }},
        {"Forward unset y", miopenStatusNotInitialized, [](Fixture& f) { return f.fwd(f.lrn, f.x, f.unset, false, nullptr); }},
        // Backward.
        {"Backward null handle", miopenStatusBadParm, [](Fixture& f) {
             return miopenLRNBackward(nullptr, f.lrn, &f.one, f.x, f.yb.data(), f.x, f.yb.data(), f.x, f.xb.data(), &f.zero, f.x, f.dxb.data(), f.ws.data()); }},
        {"Backward unset LRN", miopenStatusNotInitialized, [](Fixture& f) { return f.bwd(f.unsetLrn, f.x, f.x, f.x, f.ws.data()); }},
        {"Backward null workspace", miopenStatusBadParm, [](Fixture& f) { return f.bwd(f.lrn, f.x, f.x, f.x, nullptr); }},
        {"Backward null y", miopenStatusBadParm, [](Fixture& f) {
             return miopenLRNBackward(f.h, f.lrn, &f.one, f.x, nullptr, f.x, f.yb.data(), f.x, f.xb.data(), &f.zero, f.x, f.dxb.data(), f.ws.data()); }},
        {"Backward null dx", miopenStatusBadParm, [](Fixture& f) {
             return miopenLRNBackward(f.h, f.lrn, &f.one, f.x, f.yb.data(), f.x, f.yb.data(), f.x, f.xb.data(), &f.zero, f.x, nullptr, f.ws.data()); }},
        {"Backward dx mismatch", miopenStatusBadParm, [](Fixture& f) { return f.bwd(f.lrn, f.x, f.x, f.xBad, f.ws.data()); }},
        {"Backward dy type", miopenStatusBadParm, [](Fixture& f) { return f.bwd(f.lrn, f.x, f.xHalf, f.x, f.ws.data()); }},
        {"Backward bf16", miopenStatusNotImplemented, [](Fixture& f) {
             return miopenLRNBackward(f.h, f.lrn, &f.one, f.xBf16, f.yb.data(), f.xBf16, f.yb.data(), f.xBf16, f.xb.data(), &f.zero, f.xBf16, f.dxb.data(), f.ws.data()); }},
        {"Backward K zero", miopenStatusUnknownError, [](Fixture& f) { return f.bwd(f.lrnK0, f.x, f.x, f.x, f.ws.data()); }},
        {"Backward unset dy", miopenStatusNotInitialized, [](Fixture& f) { return f.bwd(f.lrn, f.x, f.unset, f.x, f.ws.data()); }},
    };
    return kCases;
}

class LrnBadInput : public ::testing::TestWithParam<std::size_t>
{
};

TEST_P(LrnBadInput, ReturnsStatusAndWritesNothing)
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

INSTANTIATE_TEST_SUITE_P(Table, LrnBadInput, ::testing::Range<std::size_t>(0, cases().size()), badCaseName);

} // namespace
