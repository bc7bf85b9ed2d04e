// The CNN example: a small ResNet-18-style network (Network.hpp) on the public MIOpen C API and
// the HIP runtime API, running inference and training steps (forward, softmax cross-entropy,
// backward through every layer, SGD) on a deterministic random batch, with per-call times
// measured by hipEvents on the handle's stream.
//
// Built-in verification (exit status 1 when any fails):
//   - every step: the loss on the same batch is lower after the SGD step than before it;
//   - --grad-check: central finite differences of the loss for the largest-gradient weights of
//     several layers agree with the backward pass (fp32, relative tolerance);
//   - --check: the logits (inference and training mode) agree with a plain-loop forward
//     reference of the whole network (ReferenceNetwork.cpp).
//
// Usage: cnn [--batch N] [--image S] [--width C] [--blocks 2..4] [--classes K] [--iterations I]
//            [--warmup W] [--lr X] [--seed S] [--check] [--grad-check] [--json] [--mark-calls]
#include "Network.hpp"
#include "ReferenceNetwork.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace {

struct Options
{
    cnn::Config net;
    int iterations = 1;
    int warmup     = 0;
    bool check     = false;
    bool gradCheck = false;
    bool json      = false;
    bool markCalls = false;
};

void usage()
{
    std::fprintf(stderr,
                 "usage: cnn [--batch N] [--image S] [--width C] [--blocks 2..4] [--classes K] [--iterations I]\n"
                 "           [--warmup W] [--lr X] [--seed S] [--check] [--grad-check] [--json] [--mark-calls]\n");
}

bool parse(int argc, char** argv, Options& o)
{
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        auto value = [&](const char*& out) {
            if(i + 1 >= argc)
                return false;
            out = argv[++i];
            return true;
        };
        const char* v = nullptr;
        if(a == "--check")
            o.check = true;
        else if(a == "--grad-check")
            o.gradCheck = true;
        else if(a == "--json")
            o.json = true;
        else if(a == "--mark-calls")
            o.markCalls = true;
        else if(a == "--batch" && value(v))
            o.net.batch = std::atoi(v);
        else if(a == "--image" && value(v))
            o.net.imageSize = std::atoi(v);
        else if(a == "--width" && value(v))
            o.net.width = std::atoi(v);
        else if(a == "--blocks" && value(v))
            o.net.blocks = std::atoi(v);
        else if(a == "--classes" && value(v))
            o.net.classes = std::atoi(v);
        else if(a == "--iterations" && value(v))
            o.iterations = std::atoi(v);
        else if(a == "--warmup" && value(v))
            o.warmup = std::atoi(v);
        else if(a == "--lr" && value(v))
            o.net.lr = static_cast<float>(std::atof(v));
        else if(a == "--seed" && value(v))
            o.net.seed = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
        else
            return false;
    }
    return o.iterations >= 1 && o.warmup >= 0;
}

// The deterministic batch: images uniform in [-1, 1], labels uniform over the classes.
void makeBatch(const cnn::Config& cfg, std::vector<float>& images, std::vector<int>& labels)
{
    std::mt19937 rng(cfg.seed + 1);
    std::uniform_real_distribution<float> pixel(-1.0f, 1.0f);
    images.resize(static_cast<std::size_t>(cfg.batch) * 3 * cfg.imageSize * cfg.imageSize);
    for(auto& p : images)
        p = pixel(rng);
    labels.resize(static_cast<std::size_t>(cfg.batch));
    for(auto& l : labels)
        l = static_cast<int>(rng() % static_cast<unsigned>(cfg.classes));
}

struct ReferenceResult
{
    double inferenceDiff = 0.0, trainingDiff = 0.0, scale = 0.0, tol = 0.0;
    bool ok = false;
};

double maxAbsDiff(const std::vector<float>& a, const std::vector<double>& b, double& scale)
{
    double m = 0.0;
    for(std::size_t i = 0; i < a.size(); ++i)
    {
        m     = std::max(m, std::fabs(static_cast<double>(a[i]) - b[i]));
        scale = std::max(scale, std::fabs(b[i]));
    }
    return m;
}

// (c) the logits of both modes against the plain-loop reference. fp32 convolutions through
// Winograd or FFT and fp32 batch statistics leave a relative error below 1e-6 here; a wrong
// layer, stride, padding or parameter gives errors of order one.
ReferenceResult checkAgainstReference(cnn::Network& net, const std::vector<float>& images)
{
    ReferenceResult r;
    const std::vector<float> inf = net.inference();
    net.forwardTraining(false);
    const std::vector<float> train = net.lastLogits();
    r.inferenceDiff = maxAbsDiff(inf, cnn::referenceLogits(net, images, false), r.scale);
    r.trainingDiff  = maxAbsDiff(train, cnn::referenceLogits(net, images, true), r.scale);
    r.tol           = 1e-4 * std::max(1.0, r.scale);
    r.ok            = r.inferenceDiff <= r.tol && r.trainingDiff <= r.tol;
    return r;
}

struct GradCheckResult
{
    int checked        = 0;
    int failed         = 0;
    double maxRelError = 0.0;
    std::vector<std::string> lines;
};

// (a) central differences of the fp32 loss for the two largest-gradient entries of several
// parameters (convolutions of the stem, the first and the last block, their batchnorm scale and
// shift, the classifier's weights and bias). The loss is evaluated in training mode without
// touching the running statistics, so it is a pure function of the parameters. ReLU and max-pool
// make it piecewise smooth: a step that crosses a kink skews one difference by a few percent, so
// each entry is differenced with two steps and the closer one counts (a wrong gradient is off for
// both; e.g. a dropped residual gradient gives errors of 50-80 %).
GradCheckResult gradientCheck(cnn::Network& net)
{
    constexpr float kSteps[] = {3e-3f, 1e-3f};
    constexpr double kRelTol = 5e-2;
    constexpr double kFloor  = 1e-3; // gradients below this compare absolutely
    GradCheckResult r;
    net.forwardTraining(false);
    net.backward();
    auto& blocks = net.blocks();
    std::vector<cnn::Param*> checked{&net.stemConv().weight,
                                     &blocks.front()->conv1.weight,
                                     &blocks.front()->bn1.scale,
                                     &blocks.back()->conv2.weight,
                                     &blocks.back()->bn2.bias,
                                     &net.classifier().weight,
                                     net.classifier().bias.get()};
    if(blocks.back()->proj)
        checked.push_back(&blocks.back()->proj->weight);
    for(cnn::Param* p : checked)
    {
        const std::vector<float> grad = p->grad.download();
        std::vector<std::size_t> order(grad.size());
        for(std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::partial_sort(order.begin(), order.begin() + std::min<std::size_t>(2, order.size()), order.end(),
                          [&](std::size_t a, std::size_t b) { return std::fabs(grad[a]) > std::fabs(grad[b]); });
        for(std::size_t j = 0; j < std::min<std::size_t>(2, order.size()); ++j)
        {
            const std::size_t i = order[j];
            const float orig    = p->value.read(i);
            const double g      = grad[i];
            double fd = 0.0, err = 0.0;
            for(std::size_t k = 0; k < std::size(kSteps); ++k)
            {
                const float eps = kSteps[k];
                p->value.write(i, orig + eps);
                const float lossPlus = net.forwardTraining(false);
                p->value.write(i, orig - eps);
                const float lossMinus = net.forwardTraining(false);
                p->value.write(i, orig);
                const double d = (static_cast<double>(lossPlus) - lossMinus) / (2.0 * eps);
                const double e = std::fabs(d - g) / std::max({std::fabs(d), std::fabs(g), kFloor});
                if(k == 0 || e < err)
                {
                    fd  = d;
                    err = e;
                }
            }
            const bool ok    = err <= kRelTol;
            r.maxRelError    = std::max(r.maxRelError, err);
            ++r.checked;
            if(!ok)
                ++r.failed;
            char line[256];
            std::snprintf(line, sizeof line, "  %-22s [%5zu]  backward % .6e  finite-diff % .6e  rel.err %.2e  %s",
                          p->name.c_str(), i, g, fd, err, ok ? "OK" : "MISMATCH");
            r.lines.emplace_back(line);
        }
    }
    return r;
}

struct Row
{
    cnn::CallTime call;
    std::vector<float> samples;
};

// The median over the timed iterations of each call, in call order.
std::vector<Row> aggregate(const std::vector<std::vector<cnn::CallTime>>& iterations)
{
    std::vector<Row> rows;
    std::map<std::string, std::size_t> index;
    for(const auto& it : iterations)
    {
        std::map<std::string, int> seen; // a layer may issue the same call twice in one iteration
        for(const auto& c : it)
        {
            const std::string base = c.phase + "|" + c.layer + "|" + c.direction;
            const std::string key  = base + "#" + std::to_string(seen[base]++);
            auto f                 = index.find(key);
            if(f == index.end())
            {
                index[key] = rows.size();
                rows.push_back(Row{c, {}});
                f = index.find(key);
            }
            rows[f->second].samples.push_back(c.ms);
        }
    }
    for(auto& r : rows)
    {
        std::sort(r.samples.begin(), r.samples.end());
        r.call.ms = r.samples[r.samples.size() / 2];
    }
    return rows;
}

} // namespace

int main(int argc, char** argv)
{
    Options opt;
    if(!parse(argc, argv, opt))
    {
        usage();
        return 2;
    }
    try
    {
        hipStream_t stream = nullptr;
        CNN_HIP(hipStreamCreate(&stream));
        miopenHandle_t handle = nullptr;
        CNN_MIOPEN(miopenCreateWithStream(&handle, stream));
        CNN_MIOPEN(miopenSetStream(handle, stream)); // as frameworks do before their calls

        cnn::Profiler profiler(stream);
        profiler.setMarking(opt.markCalls);
        cnn::Network net(handle, profiler, opt.net);
        std::vector<float> images;
        std::vector<int> labels;
        makeBatch(opt.net, images, labels);
        net.setBatch(images, labels);
        bool ok = true;

        ReferenceResult ref;
        if(opt.check)
        {
            ref = checkAgainstReference(net, images);
            ok  = ok && ref.ok;
        }
        GradCheckResult grad;
        if(opt.gradCheck)
        {
            grad = gradientCheck(net);
            ok   = ok && grad.failed == 0;
        }

        // (b) and the timed iterations: inference, then one training step on the same batch.
        std::vector<float> lossBefore, lossAfter;
        for(int it = 0; it < opt.warmup + opt.iterations; ++it)
        {
            const bool timed = it >= opt.warmup;
            profiler.setRecording(timed);
            if(timed)
                profiler.beginIteration();
            net.inference();
            const float before = net.forwardTraining(true);
            net.backward();
            net.sgdStep(opt.net.lr);
            profiler.setRecording(false);
            const float after = net.forwardTraining(false);
            lossBefore.push_back(before);
            lossAfter.push_back(after);
            if(!(std::isfinite(before) && std::isfinite(after) && after < before))
                ok = false;
        }
        CNN_HIP(hipStreamSynchronize(stream));
        const std::vector<Row> rows = aggregate(profiler.iterations());
        std::map<std::string, double> phaseMs;
        for(const auto& r : rows)
            phaseMs[r.call.phase] += static_cast<double>(r.call.ms);
        const double trainMs = phaseMs["forward"] + phaseMs["backward"] + phaseMs["update"];
        bool decreased = true;
        for(std::size_t i = 0; i < lossBefore.size(); ++i)
            decreased = decreased && lossAfter[i] < lossBefore[i];

        const cnn::Config& c = opt.net;
        if(opt.json)
        {
            std::printf("{\n  \"batch\": %d, \"image\": %d, \"width\": %d, \"blocks\": %d, \"classes\": %d,\n", c.batch,
                        c.imageSize, c.width, c.blocks, c.classes);
            std::printf("  \"iterations\": %d, \"warmup\": %d, \"lr\": %g,\n", opt.iterations, opt.warmup,
                        static_cast<double>(c.lr));
            std::printf("  \"loss_before\": %.6f, \"loss_after\": %.6f, \"loss_decreased\": %s,\n",
                        static_cast<double>(lossBefore.front()), static_cast<double>(lossAfter.front()),
                        decreased ? "true" : "false");
            if(opt.check)
                std::printf("  \"reference_check\": {\"inference_max_diff\": %.3e, \"training_max_diff\": %.3e, "
                            "\"tolerance\": %.3e, \"ok\": %s},\n",
                            ref.inferenceDiff, ref.trainingDiff, ref.tol, ref.ok ? "true" : "false");
            if(opt.gradCheck)
                std::printf("  \"grad_check\": {\"checked\": %d, \"failed\": %d, \"max_rel_error\": %.3e},\n",
                            grad.checked, grad.failed, grad.maxRelError);
            std::printf("  \"inference_ms\": %.4f, \"training_step_ms\": %.4f,\n", phaseMs["inference"], trainMs);
            std::printf("  \"ok\": %s,\n  \"calls\": [\n", ok ? "true" : "false");
            for(std::size_t i = 0; i < rows.size(); ++i)
                std::printf("    {\"phase\": \"%s\", \"layer\": \"%s\", \"direction\": \"%s\", \"ms\": %.4f}%s\n",
                            rows[i].call.phase.c_str(), rows[i].call.layer.c_str(), rows[i].call.direction.c_str(),
                            static_cast<double>(rows[i].call.ms), i + 1 < rows.size() ? "," : "");
            std::printf("  ]\n}\n");
        }
        else
        {
            std::printf("cnn: ResNet-style, batch %d, image %dx%d, width %d, %d blocks, %d classes; %d timed "
                        "iteration(s) after %d warm-up\n",
                        c.batch, c.imageSize, c.imageSize, c.width, c.blocks, c.classes, opt.iterations, opt.warmup);
            std::printf("%-10s %-22s %-12s %10s\n", "phase", "layer", "direction", "time (ms)");
            for(const auto& r : rows)
                std::printf("%-10s %-22s %-12s %10.4f\n", r.call.phase.c_str(), r.call.layer.c_str(),
                            r.call.direction.c_str(), static_cast<double>(r.call.ms));
            std::printf("inference %.3f ms; training step %.3f ms (forward %.3f, backward %.3f, update %.3f)\n",
                        phaseMs["inference"], trainMs, phaseMs["forward"], phaseMs["backward"], phaseMs["update"]);
            std::printf("loss on the batch: %.6f before the SGD step, %.6f after: %s\n",
                        static_cast<double>(lossBefore.front()), static_cast<double>(lossAfter.front()),
                        decreased ? "decreased OK" : "DID NOT DECREASE");
            if(opt.check)
                std::printf("reference check: logits max|diff| inference %.3e, training %.3e (tolerance %.3e): %s\n",
                            ref.inferenceDiff, ref.trainingDiff, ref.tol, ref.ok ? "OK" : "MISMATCH");
            if(opt.gradCheck)
            {
                std::printf("gradient check: %d weights, max relative error %.2e: %s\n", grad.checked,
                            grad.maxRelError, grad.failed == 0 ? "OK" : "MISMATCH");
                for(const auto& l : grad.lines)
                    std::printf("%s\n", l.c_str());
            }
            std::printf("%s\n", ok ? "cnn: all checks passed" : "cnn: VERIFICATION FAILED");
        }
        CNN_MIOPEN(miopenDestroy(handle));
        CNN_HIP(hipStreamDestroy(stream));
        return ok ? 0 : 1;
    }
    catch(const std::exception& e)
    {
        std::fprintf(stderr, "cnn: %s\n", e.what());
        return 2;
    }
}
