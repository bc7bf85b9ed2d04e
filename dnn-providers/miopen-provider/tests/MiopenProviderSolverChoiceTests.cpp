// The provider's DB-free solver rule (SolverPreference.hpp): the preference order itself, that it
// names every solution MIOpen has (the plan asks MIOpen id by id and never lists them, RFC 4.8),
// and the solution a plan takes for problems of each kind the rule distinguishes (data type, 1x1
// or larger filter, output width).
#include "MiopenTestHelpers.hpp"

#include <MiopenApi.hpp>
#include <SolverPreference.hpp>

#include <algorithm>
#include <set>

namespace miopen_provider_tests
{
namespace
{

using miopen_provider::preferredSolutions;
using miopen_provider::SolverDataType;
using miopen_provider::SolverDirection;

template <size_t N>
std::vector<uint64_t> listOf(const std::array<uint64_t, N>& a)
{
    return {a.begin(), a.end()};
}

std::vector<uint64_t> baseOf(SolverDirection d)
{
    return d == SolverDirection::Forward        ? listOf(miopen_provider::kPreferredForward)
           : d == SolverDirection::BackwardData ? listOf(miopen_provider::kPreferredBackwardData)
                                                : listOf(miopen_provider::kPreferredBackwardWeights);
}

const SolverDirection kDirections[] = {SolverDirection::Forward, SolverDirection::BackwardData,
                                       SolverDirection::BackwardWeights};

TEST(MiopenSolverPreference, Fp32IsTheFixedListWhateverTheGeometry)
{
    for(const auto d : kDirections)
    {
        for(const bool pointwise : {false, true})
        {
            for(const int64_t width : {1, 7, 13, 14, 56})
            {
                EXPECT_EQ(preferredSolutions(d, SolverDataType::Float, pointwise, width), baseOf(d));
            }
        }
    }
}

TEST(MiopenSolverPreference, ReducedPrecisionHeadsThenEveryListedIdOnce)
{
    for(const auto type : {SolverDataType::Half, SolverDataType::BFloat16})
    {
        for(const auto d : kDirections)
        {
            for(const bool pointwise : {false, true})
            {
                for(const int64_t width : {7, 14})
                {
                    const auto order = preferredSolutions(d, type, pointwise, width);
                    const std::set<uint64_t> unique(order.begin(), order.end());
                    EXPECT_EQ(unique.size(), order.size()) << "an id listed twice";
                    for(uint64_t id : baseOf(d))
                    {
                        EXPECT_EQ(unique.count(id), 1u) << "id " << id << " of the fp32 list is missing";
                    }
                    EXPECT_EQ(order.size(), baseOf(d).size());
                }
            }
        }
    }
    using V = std::vector<uint64_t>;
    const auto head = [](SolverDataType type, SolverDirection d, bool pointwise, int64_t width, size_t n) {
        const auto order = preferredSolutions(d, type, pointwise, width);
        return V(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n));
    };
    for(const auto type : {SolverDataType::Half, SolverDataType::BFloat16})
    {
        // Larger filters: the phase grid first where the output is at least 14 wide (always in
        // backward data), the im2col GEMM first below.
        EXPECT_EQ(head(type, SolverDirection::Forward, false, 14, 2), (V{1201, 91}));
        EXPECT_EQ(head(type, SolverDirection::Forward, false, 13, 2), (V{91, 1201}));
        EXPECT_EQ(head(type, SolverDirection::BackwardData, false, 7, 2), (V{1202, 97}));
        EXPECT_EQ(head(type, SolverDirection::BackwardWeights, false, 28, 2), (V{1203, 102}));
        EXPECT_EQ(head(type, SolverDirection::BackwardWeights, false, 7, 2), (V{102, 1203}));
    }
    // 1x1 in bf16: the general GEMMs before the strided-1x1 gather solvers; fp16 keeps the fp32 list.
    EXPECT_EQ(head(SolverDataType::BFloat16, SolverDirection::Forward, true, 28, 3), (V{88, 91, 90}));
    EXPECT_EQ(head(SolverDataType::BFloat16, SolverDirection::BackwardData, true, 28, 4), (V{96, 97, 1202, 95}));
    for(const auto d : kDirections)
    {
        EXPECT_EQ(preferredSolutions(d, SolverDataType::Half, true, 28), baseOf(d));
    }
    EXPECT_EQ(preferredSolutions(SolverDirection::BackwardWeights, SolverDataType::BFloat16, true, 28),
              baseOf(SolverDirection::BackwardWeights));
}

/// The ids miopenConvolution*GetSolution_impl lists for one problem (N=2, 4 -> 6 channels, square
/// or cubic, symmetric padding filter / 2), asked here by the test; the provider never calls it.
std::vector<uint64_t> miopenSolutions(SolverDirection d, miopenDataType_t type, int spatial, int in, int filter,
                                      int stride, bool deterministic)
{
    using namespace miopen_provider;
    const int pad = filter / 2, out = (in + 2 * pad - filter) / stride + 1;
    std::vector<int> xd{2, 4}, wd{6, 4}, yd{2, 6};
    for(int s = 0; s < spatial; ++s)
    {
        xd.push_back(in);
        wd.push_back(filter);
        yd.push_back(out);
    }
    auto tensor = [&](const std::vector<int>& dims) {
        TensorDesc t = createTensorDesc();
        std::vector<int> strides(dims.size(), 1);
        for(size_t i = dims.size() - 1; i > 0; --i)
        {
            strides[i - 1] = strides[i] * dims[i];
        }
        checkMiopen(miopenSetTensorDescriptor_impl(t.get(), type, static_cast<int>(dims.size()), dims.data(),
                                                   strides.data()),
                    "miopenSetTensorDescriptor_impl");
        return t;
    };
    const TensorDesc x = tensor(xd), w = tensor(wd), y = tensor(yd);
    const ConvDesc conv = createConvDesc();
    const std::vector<int> pads(spatial, pad), strides(spatial, stride), dilations(spatial, 1);
    checkMiopen(miopenInitConvolutionNdDescriptor_impl(conv.get(), spatial, pads.data(), strides.data(),
                                                       dilations.data(), miopenConvolution),
                "miopenInitConvolutionNdDescriptor_impl");
    if(deterministic)
    {
        checkMiopen(miopenSetConvolutionAttribute_impl(conv.get(), MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1),
                    "miopenSetConvolutionAttribute_impl");
    }
    const Handle h = createHandle();
    size_t count = 0, got = 0;
    std::vector<miopenConvSolution_t> list;
    switch(d)
    {
    case SolverDirection::Forward:
        checkMiopen(miopenConvolutionForwardGetSolutionCount_impl(h.get(), w.get(), x.get(), conv.get(), y.get(), &count),
                    "GetSolutionCount");
        list.resize(std::max<size_t>(count, 1));
        checkMiopen(miopenConvolutionForwardGetSolution_impl(h.get(), w.get(), x.get(), conv.get(), y.get(), list.size(),
                                                             &got, list.data()),
                    "GetSolution");
        break;
    case SolverDirection::BackwardData:
        checkMiopen(miopenConvolutionBackwardDataGetSolutionCount_impl(h.get(), y.get(), w.get(), conv.get(), x.get(),
                                                                       &count),
                    "GetSolutionCount");
        list.resize(std::max<size_t>(count, 1));
        checkMiopen(miopenConvolutionBackwardDataGetSolution_impl(h.get(), y.get(), w.get(), conv.get(), x.get(),
                                                                  list.size(), &got, list.data()),
                    "GetSolution");
        break;
    case SolverDirection::BackwardWeights:
        checkMiopen(miopenConvolutionBackwardWeightsGetSolutionCount_impl(h.get(), y.get(), x.get(), conv.get(), w.get(),
                                                                          &count),
                    "GetSolutionCount");
        list.resize(std::max<size_t>(count, 1));
        checkMiopen(miopenConvolutionBackwardWeightsGetSolution_impl(h.get(), y.get(), x.get(), conv.get(), w.get(),
                                                                     list.size(), &got, list.data()),
                    "GetSolution");
        break;
    }
    EXPECT_EQ(got, count);
    std::vector<uint64_t> ids;
    for(size_t i = 0; i < got; ++i)
    {
        ids.push_back(list[i].solution_id);
    }
    return ids;
}

// The provider takes the first preferred id MIOpen accepts (GetSolutionWorkspaceSize_impl) and
// declines when none is accepted: that is the first preferred id of GetSolution's set only if
// every id in the set is in the list. Problems of every kind the solvers distinguish.
TEST(MiopenSolverPreference, NamesEverySolutionMiopenHas)
{
    struct Shape
    {
        int spatial, in, filter, stride;
    };
    const Shape shapes[] = {{2, 16, 1, 1}, {2, 16, 1, 2}, {2, 16, 3, 1}, {2, 7, 3, 1}, {2, 16, 3, 2},
                            {2, 9, 5, 1},  {1, 12, 3, 1}, {3, 6, 3, 1},  {3, 6, 1, 1}};
    const std::pair<miopenDataType_t, SolverDataType> types[] = {{miopenFloat, SolverDataType::Float},
                                                                 {miopenHalf, SolverDataType::Half},
                                                                 {miopenBFloat16, SolverDataType::BFloat16}};
    std::set<uint64_t> seen;
    for(const auto& [type, solverType] : types)
    {
        for(const auto& s : shapes)
        {
            for(const bool deterministic : {false, true})
            {
                for(const auto d : kDirections)
                {
                    const auto ids = miopenSolutions(d, type, s.spatial, s.in, s.filter, s.stride, deterministic);
                    EXPECT_FALSE(ids.empty());
                    const int out = (s.in + 2 * (s.filter / 2) - s.filter) / s.stride + 1;
                    const auto order = preferredSolutions(d, solverType, s.filter == 1, out);
                    for(uint64_t id : ids)
                    {
                        seen.insert(id);
                        EXPECT_NE(std::find(order.begin(), order.end(), id), order.end())
                            << "MIOpen solution " << id << " (direction " << static_cast<int>(d) << ", "
                            << s.spatial << "-D " << s.filter << "x" << s.filter << " stride " << s.stride
                            << ", type " << static_cast<int>(type) << ") is not in the provider's list";
                    }
                }
            }
        }
    }
    // Every id of the lists showed up for some problem: the set above is not vacuous.
    for(const auto d : kDirections)
    {
        for(uint64_t id : baseOf(d))
        {
            EXPECT_EQ(seen.count(id), 1u) << "no problem above lists solution " << id;
        }
    }
}

enum class Kind
{
    Fprop,
    Dgrad,
    Wgrad,
};

/// The solution id of the provider's plan for one convolution (N=1, 4 -> 4 channels, square).
uint64_t planSolution(Kind kind, fe::DataType type, int64_t in, int64_t filter, int64_t stride)
{
    const int64_t pad = filter / 2;
    const int64_t out = (in + 2 * pad - filter) / stride + 1;
    const std::vector<int64_t> xd{1, 4, in, in}, wd{4, 4, filter, filter}, yd{1, 4, out, out};
    fe::graph::Graph g;
    g.set_io_data_type(type).set_intermediate_data_type(fe::DataType::FLOAT).set_compute_data_type(fe::DataType::FLOAT);
    std::shared_ptr<fe::graph::TensorAttributes> result;
    switch(kind)
    {
    case Kind::Fprop:
    {
        auto x = g.tensor(fe::graph::TensorAttributes().set_name("x").set_dim(xd));
        auto w = g.tensor(fe::graph::TensorAttributes().set_name("w").set_dim(wd));
        result = g.conv_fprop(x, w, fe::graph::ConvFpropAttributes().set_padding({pad, pad}).set_stride({stride, stride}).set_dilation({1, 1}));
        result->set_name("y");
        break;
    }
    case Kind::Dgrad:
    {
        auto dy = g.tensor(fe::graph::TensorAttributes().set_name("dy").set_dim(yd));
        auto w = g.tensor(fe::graph::TensorAttributes().set_name("w").set_dim(wd));
        result = g.conv_dgrad(dy, w, fe::graph::ConvDgradAttributes().set_padding({pad, pad}).set_stride({stride, stride}).set_dilation({1, 1}));
        result->set_name("dx").set_dim(xd);
        break;
    }
    case Kind::Wgrad:
    {
        auto x = g.tensor(fe::graph::TensorAttributes().set_name("x").set_dim(xd));
        auto dy = g.tensor(fe::graph::TensorAttributes().set_name("dy").set_dim(yd));
        result = g.conv_wgrad(dy, x, fe::graph::ConvWgradAttributes().set_padding({pad, pad}).set_stride({stride, stride}).set_dilation({1, 1}));
        result->set_name("dw").set_dim(wd);
        break;
    }
    }
    result->set_output(true);
    return providerSolutionId(g);
}

TEST(MiopenSolverPreference, PlansTakeTheRulesSolution)
{
    for(const auto type : {fe::DataType::HALF, fe::DataType::BFLOAT16})
    {
        SCOPED_TRACE(type == fe::DataType::HALF ? "fp16" : "bf16");
        EXPECT_EQ(planSolution(Kind::Fprop, type, 16, 3, 1), 1201u); // 3x3, 16 wide: phase grid
        EXPECT_EQ(planSolution(Kind::Fprop, type, 7, 3, 1), 91u);    // 3x3, 7 wide: im2col GEMM
        EXPECT_EQ(planSolution(Kind::Dgrad, type, 7, 3, 1), 1202u);
        EXPECT_EQ(planSolution(Kind::Wgrad, type, 16, 3, 1), 1203u);
        EXPECT_EQ(planSolution(Kind::Wgrad, type, 7, 3, 1), 102u);
        EXPECT_EQ(planSolution(Kind::Fprop, type, 16, 1, 1), 88u);
    }
    // Strided 1x1: bf16 takes the general GEMMs, fp16 the gather solvers (as fp32).
    EXPECT_EQ(planSolution(Kind::Fprop, fe::DataType::BFLOAT16, 16, 1, 2), 91u);
    EXPECT_EQ(planSolution(Kind::Dgrad, fe::DataType::BFLOAT16, 16, 1, 2), 97u);
    EXPECT_EQ(planSolution(Kind::Fprop, fe::DataType::HALF, 16, 1, 2), 90u);
    EXPECT_EQ(planSolution(Kind::Dgrad, fe::DataType::HALF, 16, 1, 2), 95u);
    // fp32: the fixed list (Winograd for 3x3 stride 1, the strided-1x1 solvers).
    EXPECT_EQ(planSolution(Kind::Fprop, fe::DataType::FLOAT, 16, 3, 1), 1001u);
    EXPECT_EQ(planSolution(Kind::Wgrad, fe::DataType::FLOAT, 16, 3, 1), 1002u);
    EXPECT_EQ(planSolution(Kind::Fprop, fe::DataType::FLOAT, 16, 1, 2), 90u);
    EXPECT_EQ(planSolution(Kind::Dgrad, fe::DataType::FLOAT, 16, 1, 2), 95u);
}

} // namespace
} // namespace miopen_provider_tests
