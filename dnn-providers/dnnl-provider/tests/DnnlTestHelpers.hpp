// Helpers of the oneDNN provider tests: typed tensors, seeded random geometry, the engine check.
#pragma once

#include <DnnlRuntime.hpp>

#include <hipdnn_frontend.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceValidation.hpp>
#include <hipdnn_test_sdk/utilities/Seeds.hpp>
#include <hipdnn_test_sdk/utilities/Tensor.hpp>

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace dnnl_provider_tests
{

using bf16 = hipdnn_data_sdk::types::bfloat16;
namespace fe = hipdnn_frontend;
namespace tu = hipdnn_test_sdk::utilities;

template <typename T>
fe::DataType typeOf()
{
    return std::is_same_v<T, bf16> ? fe::DataType::BFLOAT16 : fe::DataType::FLOAT;
}

template <typename T>
const char* typeName()
{
    return std::is_same_v<T, bf16> ? "bf16" : "fp32";
}

/// Skips the test (with the printed reason) when T is bf16 and this CPU has no oneDNN bf16.
#define DNNL_SKIP_IF_NO_BF16(T)                                                                    \
    do                                                                                             \
    {                                                                                              \
        std::string bf16Why_;                                                                      \
        if(std::is_same_v<T, bf16> && !dnnl_provider::DnnlRuntime::bf16Supported(&bf16Why_))      \
        {                                                                                          \
            std::cout << "skipping bf16: " << bf16Why_ << std::endl;                               \
            GTEST_SKIP() << "bf16 not supported here: " << bf16Why_;                               \
        }                                                                                          \
    } while(false)

#define FE_ASSERT_OK(expr)                                                                         \
    do                                                                                             \
    {                                                                                              \
        const ::hipdnn_frontend::Error feError_ = (expr);                                          \
        ASSERT_FALSE(feError_.is_bad()) << #expr << ": " << feError_;                              \
    } while(false)

/// Seeded generator of one test case (the seed is printed on failure through SCOPED_TRACE).
class CaseRng
{
public:
    explicit CaseRng(uint32_t salt)
        : _seed(tu::deriveSeed(salt))
        , _gen(_seed)
    {
    }
    int64_t pick(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(_gen); }
    bool coin() { return pick(0, 1) == 1; }
    uint32_t seed(uint32_t k) const { return _seed * 2654435761u + k; }
    std::string trace() const
    {
        return "global seed " + std::to_string(tu::getGlobalTestSeed()) + ", case seed " + std::to_string(_seed);
    }

private:
    uint32_t _seed;
    std::mt19937 _gen;
};

inline std::string dimsText(const std::vector<int64_t>& d)
{
    std::string s = "[";
    for(size_t i = 0; i < d.size(); ++i)
    {
        s += (i ? "," : "") + std::to_string(d[i]);
    }
    return s + "]";
}

/// Packed or channels-last strides.
inline std::vector<int64_t> layout(const std::vector<int64_t>& dims, bool channelsLast)
{
    return channelsLast ? hipdnn_data_sdk::utilities::channelsLastStrides(dims)
                        : hipdnn_data_sdk::utilities::packedStrides(dims);
}

/// Compares with |got - ref| <= atol + rtol*|ref|.
template <typename T>
void expectClose(const tu::Tensor<T>& reference, const tu::Tensor<T>& got, double atol, double rtol,
                 const std::string& what)
{
    std::string why;
    tu::CpuFpReferenceValidation<T> validation(atol, rtol);
    EXPECT_TRUE(validation.allClose(reference, got, &why)) << what << ": " << why;
}

template <typename T>
double maxAbs(const tu::Tensor<T>& t)
{
    double m = 0.0;
    tu::forEachIndex(t.dims(), [&](const std::vector<int64_t>& i) { m = std::max(m, std::fabs(double(float(t.at(i))))); });
    return m;
}

/// A handle and the check that the graph was planned on DNNL_ENGINE.
class DnnlFrontendTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto [handle, error] = fe::createHipdnnHandle();
        ASSERT_FALSE(error.is_bad()) << error;
        _handle = std::move(handle);
    }
    hipdnnHandle_t handle() const { return *_handle; }

    /// Prefers DNNL_ENGINE, builds, and checks that DNNL_ENGINE (not a fallback) got the plan.
    static void buildOnDnnl(fe::graph::Graph& g, hipdnnHandle_t h)
    {
        g.set_preferred_engine_id_ext(std::string("DNNL_ENGINE"));
        FE_ASSERT_OK(g.build(h));
        ASSERT_EQ(g.get_engine_name_ext(), "DNNL_ENGINE") << "the graph fell back to another engine";
    }

private:
    fe::HipdnnHandlePtr _handle;
};

} // namespace dnnl_provider_tests
