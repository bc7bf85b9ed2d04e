// RFC 4.7, version skew between the provider and MIOpen Private (CMakeLists.txt runs each case in
// its own process and environment):
// - EnginesOnly...: the plugin is opened the way the hipDNN backend opens it and asked for its
//   engines; plainly (offered, nothing printed) and with a Private of another version preloaded
//   (projects/miopen/test/fakes/private_version.cpp, MIOPEN_PROVIDER_TEST_SKEW=1: the query fails
//   with the reason, and one line on stderr names both versions).
// - AnotherSoversion...: a copy of the provider built against libMIOpen_private.so.2, which is not
//   installed, is the only plugin (HIPDNN_PLUGIN_DIR): it cannot be loaded at all, hipDNN says so
//   (HIPDNN_LOG_LEVEL=warn) and a forwarded MIOpen convolution fails with a status, never served
//   by anything else.
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <miopen/miopen.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <dlfcn.h>

namespace
{

TEST(MiopenProviderVersionSkew, EnginesOnlyOnTheMiopenPrivateItWasBuiltAgainst)
{
    const bool skew = std::getenv("MIOPEN_PROVIDER_TEST_SKEW") != nullptr;
    testing::internal::CaptureStderr();
    void* plugin = dlopen(MIOPEN_PROVIDER_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(plugin, nullptr) << dlerror();
    using GetAll = hipdnnPluginStatus_t (*)(int64_t*, uint32_t, uint32_t*);
    auto getAll  = reinterpret_cast<GetAll>(dlsym(plugin, "hipdnnEnginePluginGetAllEngineIds"));
    ASSERT_NE(getAll, nullptr);
    int64_t ids[4] = {};
    uint32_t count = 0;
    const hipdnnPluginStatus_t st = getAll(ids, 4, &count);
    const std::string err = testing::internal::GetCapturedStderr();
    if(!skew)
    {
        EXPECT_EQ(st, HIPDNN_PLUGIN_STATUS_SUCCESS);
        EXPECT_EQ(count, 2u); // MIOPEN_ENGINE, MIOPEN_ENGINE_DETERMINISTIC
        EXPECT_EQ(err.find("[hipDNN MIOpen provider]"), std::string::npos) << err;
        return;
    }
    EXPECT_NE(st, HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_NE(err.find("[hipDNN MIOpen provider] the MIOpen provider was built against MIOpen Private 3."),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("but the libMIOpen_private.so.1 loaded is 9.9.9; its engines are not offered"), std::string::npos)
        << err;
}

TEST(MiopenProviderVersionSkew, AnotherSoversionIsRefusedAtLoadAndForwardedCallsFail)
{
    // The dynamic linker itself refuses the plugin.
    ASSERT_EQ(dlopen(MIOPEN_PROVIDER_SOVERSION2_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL), nullptr);
    const std::string why = dlerror();
    EXPECT_NE(why.find("libMIOpen_private.so.2"), std::string::npos) << why;

    // Through MIOpen with forwarding enabled and that plugin the only one.
    miopenHandle_t h = nullptr;
    ASSERT_EQ(miopenCreate(&h), miopenStatusSuccess);
    miopenTensorDescriptor_t x = nullptr, w = nullptr, y = nullptr;
    miopenConvolutionDescriptor_t conv = nullptr;
    ASSERT_EQ(miopenCreateTensorDescriptor(&x), miopenStatusSuccess);
    ASSERT_EQ(miopenCreateTensorDescriptor(&w), miopenStatusSuccess);
    ASSERT_EQ(miopenCreateTensorDescriptor(&y), miopenStatusSuccess);
    ASSERT_EQ(miopenCreateConvolutionDescriptor(&conv), miopenStatusSuccess);
    ASSERT_EQ(miopenSet4dTensorDescriptor(x, miopenFloat, 1, 2, 4, 4), miopenStatusSuccess);
    ASSERT_EQ(miopenSet4dTensorDescriptor(w, miopenFloat, 2, 2, 1, 1), miopenStatusSuccess);
    ASSERT_EQ(miopenSet4dTensorDescriptor(y, miopenFloat, 1, 2, 4, 4), miopenStatusSuccess);
    ASSERT_EQ(miopenInitConvolutionDescriptor(conv, miopenConvolution, 0, 0, 1, 1, 1, 1), miopenStatusSuccess);
    std::vector<float> xv(32, 1.0f), wv(4, 0.5f), yv(32, -7.0f);
    std::vector<char> ws(1 << 20);
    const float one = 1.0f, zero = 0.0f;
    testing::internal::CaptureStderr();
    const miopenStatus_t st = miopenConvolutionForward(h, &one, x, xv.data(), w, wv.data(), conv,
                                                       miopenConvolutionFwdAlgoGEMM, &zero, y, yv.data(), ws.data(),
                                                       ws.size());
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(st, miopenStatusSuccess);
    EXPECT_EQ(yv, std::vector<float>(32, -7.0f)) << "never served by Private after forwarding";
    EXPECT_NE(err.find("rejected plugin"), std::string::npos) << err;
    EXPECT_NE(err.find("libMIOpen_private.so.2"), std::string::npos) << err;
    int hipdnnStatus = 0;
    const char* message = nullptr;
    ASSERT_EQ(miopenGetLastForwardedError(&hipdnnStatus, &message), miopenStatusSuccess);
    EXPECT_NE(hipdnnStatus, 0) << message;
    miopenDestroyConvolutionDescriptor(conv);
    miopenDestroyTensorDescriptor(y);
    miopenDestroyTensorDescriptor(w);
    miopenDestroyTensorDescriptor(x);
    miopenDestroy(h);
}

} // namespace
