// RFC 4.7, version skew between MIOpen Public and MIOpen Private. Run twice (api.cmake): plainly
// (the control: calls work) and with a Private reporting another version preloaded
// (fakes/private_version.cpp, MIOPEN_TEST_VERSION_SKEW=1): every call that returns a status fails
// with miopenStatusVersionMismatch, whatever its route, and nothing reaches Private (the output
// buffer keeps its values). The Error line printed at load is checked by the ctest command.
#include "common/api_helpers.hpp"

#include <cstdlib>
#include <string>
#include <vector>

namespace {

TEST(VersionSkew, EveryCallFailsWithVersionMismatch)
{
    const bool skew           = std::getenv("MIOPEN_TEST_VERSION_SKEW") != nullptr;
    const miopenStatus_t want = skew ? miopenStatusVersionMismatch : miopenStatusSuccess;
    miopenHandle_t h          = nullptr;
    EXPECT_EQ(miopenCreate(&h), want);
    miopenTensorDescriptor_t t = nullptr;
    EXPECT_EQ(miopenCreateTensorDescriptor(&t), want);
    size_t major = 0, minor = 0, patch = 0;
    EXPECT_EQ(miopenGetVersion(&major, &minor, &patch), want);
    // A string-returning call still answers (no status to refuse with).
    EXPECT_STREQ(miopenGetErrorString(miopenStatusVersionMismatch), "miopenStatusVersionMismatch");
    if(skew)
    {
        // The forwarding set refuses too (its stubs are hand-written), on either route.
        std::vector<float> y(16, -3.0f);
        const float one = 1.0f, zero = 0.0f;
        EXPECT_EQ(miopenConvolutionForward(nullptr, &one, nullptr, nullptr, nullptr, nullptr, nullptr,
                                           miopenConvolutionFwdAlgoGEMM, &zero, nullptr, y.data(), nullptr, 0),
                  miopenStatusVersionMismatch);
        EXPECT_EQ(y, std::vector<float>(16, -3.0f));
        EXPECT_EQ(miopenDestroy(nullptr), miopenStatusVersionMismatch);
        return;
    }
    EXPECT_EQ(major, 3u);
    miopenDestroyTensorDescriptor(t);
    miopenDestroy(h);
}

} // namespace
