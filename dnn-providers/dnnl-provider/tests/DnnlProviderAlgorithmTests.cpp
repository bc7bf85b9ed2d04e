// How the provider creates fp32 convolutions (README "Convolution algorithm and layouts"): with
// oneDNN's convolution_auto (its Winograd for large 3x3 stride-1 layers), and 1x1 stride-1
// layers with few channels on the caller's layouts without reorders. Each case checks the
// plan the provider builds (its description names oneDNN's implementation and the reorders) and
// the numbers through the frontend against the test SDK reference, in all three directions.
#include "DnnlTestHelpers.hpp"

#include <DnnlGraphPlans.hpp>

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>

namespace dnnl_provider_tests
{
namespace
{

using fe::graph::TensorAttributes;
using tu::Tensor;

/// A 2-D convolution with symmetric padding `pad` and stride `stride`, packed NCHW tensors.
struct Shape
{
    int64_t n, c, k, hw, rs, pad;
    int64_t stride = 1;
    int64_t out() const { return (hw + 2 * pad - rs) / stride + 1; }
    std::vector<int64_t> x() const { return {n, c, hw, hw}; }
    std::vector<int64_t> w() const { return {k, c, rs, rs}; }
    std::vector<int64_t> y() const { return {n, k, out(), out()}; }
    tu::ConvolutionParams params() const
    {
        tu::ConvolutionParams p;
        p.prePadding = {pad, pad};
        p.postPadding = {pad, pad};
        p.stride = {stride, stride};
        p.dilation = {1, 1};
        return p;
    }
    std::string text() const
    {
        return "N" + std::to_string(n) + " C" + std::to_string(c) + " K" + std::to_string(k) + " " + std::to_string(hw)
               + "x" + std::to_string(hw) + " filter " + std::to_string(rs) + "x" + std::to_string(rs)
               + (stride > 1 ? " stride " + std::to_string(stride) : "");
    }
};

enum class Dir
{
    Fprop,
    Dgrad,
    Wgrad
};

const char* dirName(Dir d)
{
    return d == Dir::Fprop ? "conv_fprop" : d == Dir::Dgrad ? "conv_dgrad" : "conv_wgrad";
}

/// One convolution graph of direction `d` with uids 1, 2 (inputs) and 3 (output).
struct ConvGraph
{
    fe::graph::Graph graph;
    std::shared_ptr<TensorAttributes> in0, in1, out;

    ConvGraph(const Shape& s, Dir d, fe::DataType io = fe::DataType::FLOAT)
    {
        graph.set_io_data_type(io)
            .set_intermediate_data_type(fe::DataType::FLOAT)
            .set_compute_data_type(fe::DataType::FLOAT);
        const auto p = s.params();
        auto tensor = [&](int64_t uid, const char* name, const std::vector<int64_t>& dims) {
            return graph.tensor(TensorAttributes().set_uid(uid).set_name(name).set_dim(dims).set_stride(
                layout(dims, false)));
        };
        std::vector<int64_t> outDims;
        if(d == Dir::Fprop)
        {
            in0 = tensor(1, "x", s.x());
            in1 = tensor(2, "w", s.w());
            out = graph.conv_fprop(in0, in1, fe::graph::ConvFpropAttributes()
                                                 .set_pre_padding(p.prePadding)
                                                 .set_post_padding(p.postPadding)
                                                 .set_stride(p.stride)
                                                 .set_dilation(p.dilation));
            outDims = s.y();
        }
        else if(d == Dir::Dgrad)
        {
            in0 = tensor(1, "dy", s.y());
            in1 = tensor(2, "w", s.w());
            out = graph.conv_dgrad(in0, in1, fe::graph::ConvDgradAttributes()
                                                 .set_pre_padding(p.prePadding)
                                                 .set_post_padding(p.postPadding)
                                                 .set_stride(p.stride)
                                                 .set_dilation(p.dilation));
            outDims = s.x();
        }
        else
        {
            in0 = tensor(1, "dy", s.y());
            in1 = tensor(2, "x", s.x());
            out = graph.conv_wgrad(in0, in1, fe::graph::ConvWgradAttributes()
                                                 .set_pre_padding(p.prePadding)
                                                 .set_post_padding(p.postPadding)
                                                 .set_stride(p.stride)
                                                 .set_dilation(p.dilation));
            outDims = s.w();
        }
        out->set_output(true).set_uid(3).set_name("out").set_dim(outDims).set_stride(layout(outDims, false));
    }

    /// The description of the plan the provider builds for this graph (its oneDNN implementation
    /// in brackets, then " + N reorder(s)" when it reorders).
    std::string planDescription()
    {
        std::vector<uint8_t> bytes;
        EXPECT_FALSE(graph.validate().is_bad());
        EXPECT_FALSE(graph.serialize(bytes).is_bad());
        const hipdnnPluginConstData_t data{bytes.data(), bytes.size()};
        const auto view = hipdnn_plugin_sdk::GraphView::fromBuffer(&data);
        std::string whyNot;
        const auto plan = dnnl_provider::buildDnnlPlan(view, whyNot);
        EXPECT_NE(plan, nullptr) << whyNot;
        return plan != nullptr ? plan->description() : "declined: " + whyNot;
    }
};

/// True when oneDNN dispatches to AVX-512 kernels here (where its preferred layouts are blocked).
bool hasAvx512Core(std::string* why)
{
    const auto isa = dnnl::get_effective_cpu_isa();
    if(isa == dnnl::cpu_isa::avx512_core || isa == dnnl::cpu_isa::avx512_core_vnni
       || isa == dnnl::cpu_isa::avx512_core_bf16 || isa == dnnl::cpu_isa::avx512_core_amx)
    {
        return true;
    }
    *why = "oneDNN does not dispatch to avx512_core on this CPU";
    return false;
}

/// Runs the graph through the frontend on DNNL_ENGINE and compares with the reference within
/// `growth` x the test SDK's dot-product error bound (printed with the observed error).
class DnnlConvAlgorithmTest : public DnnlFrontendTest
{
protected:
    /// `wsMisalign`: the workspace handed to execute starts that many bytes past a 64-byte
    /// boundary (callers' workspaces need not be aligned; the plan aligns its buffers itself).
    void runAndCheck(const Shape& s, Dir d, double growth, size_t wsMisalign = 0)
    {
        ConvGraph cg(s, d);
        ASSERT_NO_FATAL_FAILURE(buildOnDnnl(cg.graph, handle()));
        const auto p = s.params();
        const std::vector<int64_t> in0 = d == Dir::Fprop ? s.x() : s.y();
        const std::vector<int64_t> in1 = d == Dir::Wgrad ? s.x() : s.w();
        const std::vector<int64_t> outDims = d == Dir::Fprop ? s.y() : d == Dir::Dgrad ? s.x() : s.w();
        Tensor<float> a(in0), b(in1), got(outDims), ref(outDims);
        CaseRng r(static_cast<uint32_t>(900 + static_cast<int>(d)));
        a.fillUniform(-1.f, 1.f, r.seed(1));
        b.fillUniform(-1.f, 1.f, r.seed(2));
        got.fill(7.f);
        const size_t wsSize = static_cast<size_t>(cg.graph.get_workspace_size());
        std::vector<uint8_t> wsStorage(wsSize + 64 + wsMisalign);
        void* wsBase = wsStorage.data();
        size_t room = wsStorage.size();
        ASSERT_NE(std::align(64, wsSize + wsMisalign, wsBase, room), nullptr);
        uint8_t* ws = static_cast<uint8_t*>(wsBase) + wsMisalign;
        FE_ASSERT_OK(cg.graph.execute(handle(), {{cg.in0, a.data()}, {cg.in1, b.data()}, {cg.out, got.data()}},
                                      wsSize > 0 ? ws : nullptr));
        double bound = 0;
        if(d == Dir::Fprop)
        {
            tu::CpuFpReferenceConvolution::fprop<float, float, float>(a.view(), b.view(), ref.view(), p);
            bound = tu::calculateConvFpropTolerance<float, float>(maxAbs(a), maxAbs(b), s.c * s.rs * s.rs);
        }
        else if(d == Dir::Dgrad)
        {
            tu::CpuFpReferenceConvolution::dgrad<float, float, float>(a.view(), b.view(), ref.view(), p);
            bound = tu::calculateConvDgradTolerance<float, float>(maxAbs(a), maxAbs(b), s.k * s.rs * s.rs);
        }
        else
        {
            tu::CpuFpReferenceConvolution::wgrad<float, float, float>(b.view(), a.view(), ref.view(), p);
            bound = tu::calculateConvWrwTolerance<float, float>(maxAbs(b), maxAbs(a), s.n * s.y()[2] * s.y()[3]);
        }
        double maxErr = 0;
        tu::forEachIndex(outDims, [&](const std::vector<int64_t>& i) {
            maxErr = std::max(maxErr, std::fabs(double(got.at(i)) - double(ref.at(i))));
        });
        std::cout << dirName(d) << " " << s.text() << ": max |error| " << maxErr << " = " << maxErr / bound
                  << " x the dot-product bound " << bound << " (allowed " << growth << " x)" << std::endl;
        expectClose(ref, got, growth * bound, 1e-5, dirName(d));
    }
};

// fp32 3x3 stride-1 convolutions are created with convolution_auto. oneDNN 2.6 resolves it to
// its Winograd F(4x4,3x3) only for large problems (here from about N=32, C=K=32, 16x16: 150
// MFLOP, beyond the size of a unit test), so this case checks that the auto-created plan is
// built and correct on whatever oneDNN picks, with the direct convolution's bound (the
// implementation is printed). Winograd at ResNet-50 sizes is checked by the benchmarks
// (engines_bench compares every forwarded output with pass-through's).
TEST_F(DnnlConvAlgorithmTest, Fp32Conv3x3Stride1WithConvolutionAutoMatchesReference)
{
    const Shape s{4, 32, 32, 12, 3, 1}; // 10.6 MFLOP
    for(Dir d : {Dir::Fprop, Dir::Dgrad, Dir::Wgrad})
    {
        SCOPED_TRACE(std::string(dirName(d)) + " " + s.text());
        ConvGraph cg(s, d);
        const std::string plan = cg.planDescription();
        EXPECT_EQ(plan.find("[ref"), std::string::npos) << "a reference implementation: " << plan;
        std::cout << "plan: " << plan << std::endl;
        runAndCheck(s, d, 1.0);
    }
}

TEST_F(DnnlConvAlgorithmTest, Fp32Conv1x1FewChannelsRunsOnTheCallersLayoutsWithoutReorders)
{
    const Shape s{2, 24, 40, 9, 1, 0}; // 1/24 + 1/40 >= 1/192
    for(Dir d : {Dir::Fprop, Dir::Dgrad, Dir::Wgrad})
    {
        SCOPED_TRACE(std::string(dirName(d)) + " " + s.text());
        ConvGraph cg(s, d);
        const std::string plan = cg.planDescription();
        EXPECT_EQ(plan.find("reorder"), std::string::npos) << plan;
        EXPECT_EQ(plan.find("[ref"), std::string::npos) << "a reference implementation was kept: " << plan;
        runAndCheck(s, d, 1.0);
    }
}

TEST_F(DnnlConvAlgorithmTest, Fp32Conv1x1ManyChannelsUsesOneDnnLayoutsWithReorders)
{
    std::string why;
    if(!hasAvx512Core(&why))
    {
        GTEST_SKIP() << why << ": oneDNN's preferred layouts may be plain here";
    }
    const Shape s{1, 512, 512, 2, 1, 0}; // 1/512 + 1/512 < 1/192; 2.1 MFLOP
    for(Dir d : {Dir::Fprop, Dir::Dgrad, Dir::Wgrad})
    {
        SCOPED_TRACE(std::string(dirName(d)) + " " + s.text());
        ConvGraph cg(s, d);
        const std::string plan = cg.planDescription();
        EXPECT_NE(plan.find("reorder"), std::string::npos) << plan;
        runAndCheck(s, d, 1.0);
    }
}

// How fprop is created (README "Convolution algorithm and layouts"): fp32 strided convolutions
// with a kernel larger than 1 and at least 64 channels for inference (oneDNN's brgconv, the faster
// one there at ResNet-50 sizes), everything else for training -- bf16 too, where brgconv's
// channels-last output and its reorder back to NCHW measured up to 1.7x slower. Each plan is
// checked against the reference as well.
TEST_F(DnnlConvAlgorithmTest, FpropIsCreatedForInferenceOnlyForStridedFp32ConvsWithManyChannels)
{
    std::string why;
    if(!hasAvx512Core(&why))
    {
        GTEST_SKIP() << why << ": oneDNN's brgconv needs avx512_core";
    }
    const Shape many{2, 64, 16, 14, 3, 1, 2}; // 1.8 MFLOP
    const Shape few{2, 32, 16, 14, 3, 1, 2};
    const Shape unstrided{2, 64, 16, 7, 3, 1};
    for(Dir d : {Dir::Fprop, Dir::Dgrad, Dir::Wgrad})
    {
        for(const Shape* shape : {&many, &few, &unstrided})
        {
            const Shape& s = *shape;
            SCOPED_TRACE(std::string(dirName(d)) + " " + s.text());
            ConvGraph cg(s, d);
            const std::string plan = cg.planDescription();
            std::cout << dirName(d) << " " << s.text() << " plan: " << plan << std::endl;
            EXPECT_EQ(plan.find("[ref"), std::string::npos) << "a reference implementation: " << plan;
            if(d == Dir::Fprop)
            {
                EXPECT_EQ(plan.find("brgconv") != std::string::npos, shape == &many) << plan;
            }
            runAndCheck(s, d, 1.0);
        }
    }
    if(!dnnl_provider::DnnlRuntime::bf16Supported(&why))
    {
        std::cout << "bf16 plans not checked: " << why << std::endl;
        return;
    }
    for(const Shape& s : {many, Shape{2, 64, 256, 7, 1, 0}})
    {
        ConvGraph cg(s, Dir::Fprop, fe::DataType::BFLOAT16);
        const std::string plan = cg.planDescription();
        std::cout << "bf16 conv_fprop " << s.text() << " plan: " << plan << std::endl;
        EXPECT_EQ(plan.find("brgconv"), std::string::npos) << plan;
        EXPECT_EQ(plan.find("[ref"), std::string::npos) << "a reference implementation: " << plan;
    }
}

// oneDNN's Winograd kernels load their buffers with aligned vector loads: a plan must place its
// reorder buffers and scratchpad on aligned addresses whatever the caller's workspace alignment
// (an unaligned workspace crashed the Winograd backward-weights kernel of a ResNet-50 layer). The
// large case is the smallest layer for which oneDNN 2.6 picks its Winograd (about 150 MFLOP:
// above the usual unit-test size, kept to one case for forward and one for backward data; oneDNN
// picks its Winograd backward weights only at GFLOP sizes, which engines_bench covers).
TEST_F(DnnlConvAlgorithmTest, MisalignedWorkspaceIsAlignedByThePlan)
{
    std::string why;
    if(!hasAvx512Core(&why))
    {
        GTEST_SKIP() << why << ": oneDNN's Winograd needs avx512_core";
    }
    const Shape small{1, 512, 512, 2, 1, 0};   // reorders into the workspace
    const Shape winograd{32, 32, 32, 16, 3, 1}; // oneDNN's jit_wino_4x3
    for(Dir d : {Dir::Fprop, Dir::Dgrad, Dir::Wgrad})
    {
        SCOPED_TRACE(std::string(dirName(d)));
        runAndCheck(small, d, 1.0, 16);
        if(d == Dir::Wgrad)
        {
            continue; // oneDNN picks its Winograd backward weights only at ResNet-50 sizes (GFLOPs)
        }
        ConvGraph cg(winograd, d);
        const std::string plan = cg.planDescription();
        std::cout << "plan: " << plan << std::endl;
        EXPECT_NE(plan.find("wino"), std::string::npos) << "not the Winograd path this case is for: " << plan;
        // Winograd F(4x4,3x3) rounds more than a direct convolution: 8x the dot-product bound.
        runAndCheck(winograd, d, 8.0, 8);
    }
}

// The case that crashed: oneDNN's Winograd backward weights (chosen for ResNet-50's conv4_x 3x3
// layer, 3.7 GFLOP: too large for the reference here) with a workspace 8 bytes past a 64-byte
// boundary. Checked against the same plan run on an aligned workspace: bitwise equal.
TEST_F(DnnlConvAlgorithmTest, WinogradBackwardWeightsOnAMisalignedWorkspace)
{
    std::string why;
    if(!hasAvx512Core(&why))
    {
        GTEST_SKIP() << why << ": oneDNN's Winograd needs avx512_core";
    }
    const Shape s{32, 256, 256, 14, 3, 1};
    ConvGraph cg(s, Dir::Wgrad);
    const std::string plan = cg.planDescription();
    std::cout << "plan: " << plan << std::endl;
    ASSERT_NE(plan.find("wino"), std::string::npos) << "not the Winograd path this case is for: " << plan;
    ASSERT_NO_FATAL_FAILURE(buildOnDnnl(cg.graph, handle()));
    Tensor<float> dy(s.y()), x(s.x()), aligned(s.w()), misaligned(s.w());
    CaseRng r(77);
    dy.fillUniform(-1.f, 1.f, r.seed(1));
    x.fillUniform(-1.f, 1.f, r.seed(2));
    const size_t wsSize = static_cast<size_t>(cg.graph.get_workspace_size());
    std::vector<uint8_t> storage(wsSize + 64 + 8);
    void* base = storage.data();
    size_t room = storage.size();
    ASSERT_NE(std::align(64, wsSize + 8, base, room), nullptr);
    FE_ASSERT_OK(cg.graph.execute(handle(), {{cg.in0, dy.data()}, {cg.in1, x.data()}, {cg.out, aligned.data()}}, base));
    FE_ASSERT_OK(cg.graph.execute(handle(), {{cg.in0, dy.data()}, {cg.in1, x.data()}, {cg.out, misaligned.data()}},
                                  static_cast<uint8_t*>(base) + 8));
    size_t differ = 0;
    tu::forEachIndex(s.w(), [&](const std::vector<int64_t>& i) { differ += aligned.at(i) != misaligned.at(i) ? 1 : 0; });
    EXPECT_EQ(differ, 0u);
}

} // namespace
} // namespace dnnl_provider_tests
