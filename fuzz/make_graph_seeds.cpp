// Writes the seed corpus of the hipDNN graph fuzz targets (fuzz/corpus/hipdnn_graph): serialized
// graphs the frontend builds, one per kind of node the engines accept (convolution forward, backward
// data and weights, a convolution + bias + ReLU fusion, batch-norm inference and training,
// pointwise, pooling, reduction), in fp32 and fp16. Run by hand when the graph schema changes:
//   fuzz_make_graph_seeds <directory>
// (not a test; the seeds are committed, and fuzz_hipdnn_graph_replay replays them in ctest).
#include <hipdnn_frontend/Graph.hpp>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace fe = hipdnn_frontend;
using fe::graph::Graph;
using fe::graph::TensorAttributes;

namespace {

using Builder = std::function<void(Graph&)>;

fe::graph::ConvFpropAttributes fprop()
{
    return fe::graph::ConvFpropAttributes().set_pre_padding({1, 1}).set_post_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1});
}

void conv(Graph& g)
{
    auto x = g.tensor(TensorAttributes().set_name("x").set_dim({1, 4, 6, 6}));
    auto w = g.tensor(TensorAttributes().set_name("w").set_dim({8, 4, 3, 3}));
    g.conv_fprop(x, w, fprop())->set_output(true);
}

void convBiasRelu(Graph& g)
{
    auto x = g.tensor(TensorAttributes().set_name("x").set_dim({2, 3, 5, 5}));
    auto w = g.tensor(TensorAttributes().set_name("w").set_dim({4, 3, 3, 3}));
    auto b = g.tensor(TensorAttributes().set_name("b").set_dim({1, 4, 1, 1}));
    auto y = g.conv_fprop(x, w, fprop());
    auto z = g.pointwise(y, b, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
    g.pointwise(z, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD))->set_output(true);
}

void dgrad(Graph& g)
{
    auto dy = g.tensor(TensorAttributes().set_name("dy").set_dim({1, 8, 6, 6}));
    auto w  = g.tensor(TensorAttributes().set_name("w").set_dim({8, 4, 3, 3}));
    auto dx = g.conv_dgrad(dy, w, fe::graph::ConvDgradAttributes().set_pre_padding({1, 1}).set_post_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    dx->set_output(true).set_dim({1, 4, 6, 6});
}

void wgrad(Graph& g)
{
    auto dy = g.tensor(TensorAttributes().set_name("dy").set_dim({1, 8, 3, 3}));
    auto x  = g.tensor(TensorAttributes().set_name("x").set_dim({1, 4, 6, 6}));
    auto dw = g.conv_wgrad(dy, x, fe::graph::ConvWgradAttributes().set_pre_padding({0, 0}).set_post_padding({0, 0}).set_stride({2, 2}).set_dilation({1, 1}));
    dw->set_output(true).set_dim({8, 4, 2, 2});
}

void bnInference(Graph& g)
{
    const std::vector<int64_t> cd = {1, 3, 1, 1};
    auto x  = g.tensor(TensorAttributes().set_name("x").set_dim({2, 3, 4, 4}));
    auto m  = g.tensor(TensorAttributes().set_name("mean").set_dim(cd));
    auto iv = g.tensor(TensorAttributes().set_name("inv_variance").set_dim(cd));
    auto s  = g.tensor(TensorAttributes().set_name("scale").set_dim(cd));
    auto b  = g.tensor(TensorAttributes().set_name("bias").set_dim(cd));
    g.batchnorm_inference(x, m, iv, s, b, fe::graph::BatchnormInferenceAttributes())->set_output(true);
}

void bnTraining(Graph& g)
{
    const std::vector<int64_t> cd = {1, 3, 1, 1};
    auto x   = g.tensor(TensorAttributes().set_name("x").set_dim({2, 3, 4, 4}));
    auto s   = g.tensor(TensorAttributes().set_name("scale").set_dim(cd));
    auto b   = g.tensor(TensorAttributes().set_name("bias").set_dim(cd));
    auto eps = g.tensor(TensorAttributes().set_name("epsilon").set_dim({1, 1, 1, 1}));
    auto out = g.batchnorm(x, s, b, fe::graph::BatchnormAttributes().set_epsilon(eps));
    for(auto& t : out)
        if(t != nullptr)
            t->set_output(true);
}

void pointwiseAdd(Graph& g)
{
    auto a = g.tensor(TensorAttributes().set_name("a").set_dim({2, 3, 4}));
    auto b = g.tensor(TensorAttributes().set_name("b").set_dim({2, 3, 4}));
    g.pointwise(a, b, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD))->set_output(true);
}

void maxPool(Graph& g)
{
    auto x   = g.tensor(TensorAttributes().set_name("x").set_dim({1, 2, 6, 6}));
    auto out = g.resample(x, fe::graph::ResampleFwdAttributes()
                                 .set_resampling_mode(fe::ResampleMode::MAXPOOL)
                                 .set_window({2, 2})
                                 .set_stride({2, 2})
                                 .set_pre_padding({0, 0})
                                 .set_post_padding({0, 0}));
    out[0]->set_output(true);
}

void reduction(Graph& g)
{
    auto x = g.tensor(TensorAttributes().set_name("x").set_dim({2, 3, 4}));
    g.reduction(x, fe::graph::ReductionAttributes().set_mode(fe::ReductionMode::ADD))->set_output(true).set_dim({1, 3, 1});
}

} // namespace

int main(int argc, char** argv)
{
    if(argc != 2)
    {
        std::fprintf(stderr, "usage: %s <directory>\n", argv[0]);
        return 2;
    }
    const std::vector<std::pair<std::string, Builder>> graphs = {
        {"conv_fprop", conv},        {"conv_bias_relu", convBiasRelu}, {"conv_dgrad", dgrad},
        {"conv_wgrad", wgrad},       {"bn_inference", bnInference},    {"bn_training", bnTraining},
        {"pointwise_add", pointwiseAdd}, {"maxpool", maxPool},         {"reduction_add", reduction},
    };
    int failures = 0;
    for(const auto& [name, build] : graphs)
        for(auto type : {fe::DataType::FLOAT, fe::DataType::HALF})
        {
            Graph g;
            g.set_io_data_type(type).set_intermediate_data_type(fe::DataType::FLOAT).set_compute_data_type(
                fe::DataType::FLOAT);
            build(g);
            std::vector<uint8_t> bytes;
            fe::Error e = g.validate();
            if(e.is_good())
                e = g.serialize(bytes);
            const std::string file = std::string(argv[1]) + "/" + name + (type == fe::DataType::HALF ? "_fp16" : "_fp32");
            if(e.is_bad())
            {
                std::fprintf(stderr, "%s: %s\n", file.c_str(), e.get_message().c_str());
                ++failures;
                continue;
            }
            std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                        static_cast<std::streamsize>(bytes.size()));
            std::printf("%s: %zu bytes\n", file.c_str(), bytes.size());
        }
    return failures == 0 ? 0 : 1;
}
