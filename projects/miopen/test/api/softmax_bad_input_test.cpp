// Bad input to every softmax entry point: each case returns the documented status (upstream's
// where upstream checks), never crashes, and leaves every caller buffer (guarded by canaries)
// untouched.
#include "common/api_helpers.hpp"

#include <cctype>
#include <functional>
#include <string>
#include <vector>

namespace {

using test::GuardedBuffer;

struct Fixture
{
    test::Handle h;
    test::Tensor x{miopenFloat, {2, 3, 4, 4}, {}};
    test::Tensor xBad{miopenFloat, {2, 3, 4, 5}, {}};
    test::Tensor xHalf{miopenHalf, {2, 3, 4, 4}, {}};
    test::Tensor xInt8{miopenInt8, {2, 3, 4, 4}, {}};
    test::Tensor x1d{miopenFloat, {96}, {}};
    test::Tensor aliased{miopenFloat, {2, 3, 4, 4}, {8, 16, 4, 1}}; // the two images overlap
    test::Tensor unset;
    GuardedBuffer xb{96 * 4}, yb{96 * 4}, dxb{96 * 4}, ws{16};
    float one = 1.0f, zero = 0.0f;

    miopenStatus_t fwd(miopenTensorDescriptor_t xd, miopenTensorDescriptor_t yd, int algo = 1, int mode = 1)
    {
        return miopenSoftmaxForward_V2(h, &one, xd, xb.data(), &zero, yd, yb.data(), static_cast<miopenSoftmaxAlgorithm_t>(algo),
                                       static_cast<miopenSoftmaxMode_t>(mode));
    }
    miopenStatus_t bwd(miopenTensorDescriptor_t yd, miopenTensorDescriptor_t dyd, miopenTensorDescriptor_t dxd, int algo = 1,
                       int mode = 1)
    {
        return miopenSoftmaxBackward_V2(h, &one, yd, yb.data(), dyd, xb.data(), &zero, dxd, dxb.data(),
                                        static_cast<miopenSoftmaxAlgorithm_t>(algo), static_cast<miopenSoftmaxMode_t>(mode));
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
        // miopenSoftmaxForward.
        {"Forward null handle", miopenStatusBadParm, [](Fixture& f) { return miopenSoftmaxForward(nullptr, &f.one, f.x, f.xb.data(), &f.zero, f.x, f.yb.data()); }},
        {"Forward null alpha", miopenStatusBadParm, [](Fixture& f) { return miopenSoftmaxForward(f.h, nullptr, f.x, f.xb.data(), &f.zero, f.x, f.yb.data()); }},
        {"Forward null beta", miopenStatusBadParm, [](Fixture& f) { return miopenSoftmaxForward(f.h, &f.one, f.x, f.xb.data(), nullptr, f.x, f.yb.data()); }},
        {"Forward null x", miopenStatusBadParm, [](Fixture& f) { return miopenSoftmaxForward(f.h, &f.one, f.x, nullptr, &f.zero, f.x, f.yb.data()); }},
        {"Forward null y", miopenStatusBadParm, [](Fixture& f) { return miopenSoftmaxForward(f.h, &f.one, f.x, f.xb.data(), &f.zero, f.x, nullptr); }},
        {"Forward unset x", miopenStatusNotInitialized, [](Fixture& f) { return miopenSoftmaxForward(f.h, &f.one, f.unset, f.xb.data(), &f.zero, f.x, f.yb.data()); }},
        {"Forward null yDesc", miopenStatusBadParm, [](Fixture& f) { return miopenSoftmaxForward(f.h, &f.one, f.x, f.xb.data(), &f.zero, nullptr, f.yb.data()); }},
        // miopenSoftmaxForward_V2.
        {"ForwardV2 lengths mismatch", miopenStatusBadParm, [](Fixture& f) { return f.fwd(f.x, f.xBad); }},
        {"ForwardV2 type mismatch", miopenStatusBadParm, [](Fixture& f) { return f.fwd(f.x, f.xHalf); }},
        {"ForwardV2 int8", miopenStatusNotImplemented, [](Fixture& f) { return f.fwd(f.xInt8, f.xInt8); }},
        {"ForwardV2 rank 1", miopenStatusBadParm, [](Fixture& f) { return f.fwd(f.x1d, f.x1d); }},
        {"ForwardV2 bad algorithm", miopenStatusBadParm, [](Fixture& f) { return f.fwd(f.x, f.x, 3, 1); }},
        {"ForwardV2 bad mode", miopenStatusBadParm, [](Fixture& f) { return f.fwd(f.x, f.x, 1, 2); }},
        {"ForwardV2 negative mode", miopenStatusBadParm, [](Fixture& f) { return f.fwd(f.x, f.x, 0, -1); }},
        {"ForwardV2 self-aliasing y", miopenStatusBadParm, [](Fixture& f) { return f.fwd(f.x, f.aliased); }},
        // miopenSoftmaxBackward.
        {"Backward null handle", miopenStatusBadParm, [](Fixture& f) {
             return miopenSoftmaxBackward(nullptr, &f.one, f.x, f.yb.data(), f.x, f.xb.data(), &f.zero, f.x, f.dxb.data()); }},
        {"Backward null beta", miopenStatusBadParm, [](Fixture& f) {
             return miopenSoftmaxBackward(f.h, &f.one, f.x, f.yb.data(), f.x, f.xb.data(), nullptr, f.x, f.dxb.data()); }},
        {"Backward null dy", miopenStatusBadParm, [](Fixture& f) {
             return miopenSoftmaxBackward(f.h, &f.one, f.x, f.yb.data(), f.x, nullptr, &f.zero, f.x, f.dxb.data()); }},
        {"Backward null dx", miopenStatusBadParm, [](Fixture& f) {
             return miopenSoftmaxBackward(f.h, &f.one, f.x, f.yb.data(), f.x, f.xb.data(), &f.zero, f.x, nullptr); }},
        {"Backward unset dx", miopenStatusNotInitialized, [](Fixture& f) {
             return miopenSoftmaxBackward(f.h, &f.one, f.x, f.yb.data(), f.x, f.xb.data(), &f.zero, f.unset, f.dxb.data()); }},
        // miopenSoftmaxBackward_V2.
        {"BackwardV2 y/dy mismatch", miopenStatusBadParm, [](Fixture& f) { return f.bwd(f.x, f.xBad, f.x); }},
        {"BackwardV2 dx mismatch", miopenStatusBadParm, [](Fixture& f) { return f.bwd(f.x, f.x, f.xBad); }},
        {"BackwardV2 type mismatch", miopenStatusBadParm, [](Fixture& f) { return f.bwd(f.x, f.x, f.xHalf); }},
        {"BackwardV2 int8", miopenStatusNotImplemented, [](Fixture& f) { return f.bwd(f.xInt8, f.xInt8, f.xInt8); }},
        {"BackwardV2 bad algorithm", miopenStatusBadParm, [](Fixture& f) { return f.bwd(f.x, f.x, f.x, 7, 0); }},
        {"BackwardV2 bad mode", miopenStatusBadParm, [](Fixture& f) { return f.bwd(f.x, f.x, f.x, 2, 5); }},
        {"BackwardV2 self-aliasing dx", miopenStatusBadParm, [](Fixture& f) { return f.bwd(f.x, f.x, f.aliased); }},
    };
    return kCases;
}

class SoftmaxBadInput : public ::testing::TestWithParam<std::size_t>
{
};

TEST_P(SoftmaxBadInput, ReturnsStatusAndWritesNothing)
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

INSTANTIATE_TEST_SUITE_P(Table, SoftmaxBadInput, ::testing::Range<std::size_t>(0, cases().size()), badCaseName);

} // namespace
