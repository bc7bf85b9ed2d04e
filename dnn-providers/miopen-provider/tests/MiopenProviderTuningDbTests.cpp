// The tuning DB (RFC 4.8) at the plugin level: the provider never writes MIOpen's find-db and its
// solver choice does not depend on it, while the public API (libMIOpen.so, forwarding disabled)
// keeps using it.
//
//   1. The provider's choice for a problem P with an empty DB directory.
//   2. A public-API Find for P populates the user find-db (MIOPEN_USER_DB_PATH, a temp dir).
//   3. A crafted record for P (find-db text format) makes a GEMM solver that Find did not rank
//      first the fastest.
//   4. P and a new problem Q run through the plugin (frontend, MIOPEN_ENGINE pinned): the DB
//      file's bytes and mtime and the directory listing are unchanged, the provider's choice for P
//      is the one of step 1 and MIOpen's log shows the crafted solver did not run.
//   5. The public miopenConvolutionForward for P (GEMM) runs the crafted solver (MIOpen's log).
//
// MIOpen's log level is read once per process: main() sets MIOPEN_LOG_LEVEL=6 (Info2: "<solver>
// runs ...") before any MIOpen call, and the test captures stderr around the MIOpen work.
#include "MiopenTestHelpers.hpp"

#include <MiopenGraphPlans.hpp>

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>
#include <miopen/miopen.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace miopen_provider_tests
{
namespace
{

namespace fs = std::filesystem;
using fe::graph::TensorAttributes;

struct Problem
{
    std::vector<int64_t> x, w, y;
    int64_t pad, stride;
};

const Problem kP{{1, 8, 10, 10}, {8, 8, 3, 3}, {1, 8, 10, 10}, 1, 1};
const Problem kQ{{2, 6, 9, 9}, {4, 6, 1, 1}, {2, 4, 5, 5}, 0, 2};

void convGraph(fe::graph::Graph& g, const Problem& p, std::shared_ptr<TensorAttributes>& x,
               std::shared_ptr<TensorAttributes>& w, std::shared_ptr<TensorAttributes>& y)
{
    g.set_io_data_type(fe::DataType::FLOAT).set_compute_data_type(fe::DataType::FLOAT);
    x = g.tensor(TensorAttributes().set_name("x").set_dim(p.x));
    w = g.tensor(TensorAttributes().set_name("w").set_dim(p.w));
    y = g.conv_fprop(x, w, fe::graph::ConvFpropAttributes()
                               .set_padding({p.pad, p.pad})
                               .set_stride({p.stride, p.stride})
                               .set_dilation({1, 1}));
    y->set_output(true).set_name("y");
}

/// The provider's solution id for P, from its plan (no frontend: the plan is inspected).
uint64_t providerChoice(const Problem& p)
{
    std::shared_ptr<TensorAttributes> x, w, y;
    fe::graph::Graph g;
    convGraph(g, p, x, w, y);
    return providerSolutionId(g);
}

/// Runs p through the hipDNN frontend on MIOPEN_ENGINE and checks the result.
void runThroughPlugin(hipdnnHandle_t h, const Problem& p)
{
    std::shared_ptr<TensorAttributes> x, w, y;
    fe::graph::Graph g;
    convGraph(g, p, x, w, y);
    g.set_preferred_engine_id_ext(std::string(kEngine));
    FE_ASSERT_OK(g.build(h));
    ASSERT_EQ(g.get_engine_name_ext(), kEngine);
    tu::Tensor<float> xt(p.x), wt(p.w), yt(p.y), yRef(p.y);
    xt.fillUniform(-1.f, 1.f, 1);
    wt.fillUniform(-1.f, 1.f, 2);
    std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
    FE_ASSERT_OK(g.execute(h, {{x, xt.data()}, {w, wt.data()}, {y, yt.data()}}, ws.data()));
    tu::ConvolutionParams params;
    params.prePadding = params.postPadding = {p.pad, p.pad};
    params.stride = {p.stride, p.stride};
    params.dilation = {1, 1};
    tu::CpuFpReferenceConvolution::fprop<float, float, float>(xt.view(), wt.view(), yRef.view(), params);
    expectClose(yRef, yt, 1e-4, 1e-4, "conv through the plugin");
}

/// Public-API descriptors of a problem (libMIOpen.so, forwarding disabled).
struct PublicProblem
{
    miopenHandle_t handle = nullptr;
    miopenTensorDescriptor_t x = nullptr, w = nullptr, y = nullptr;
    miopenConvolutionDescriptor_t conv = nullptr;
    explicit PublicProblem(const Problem& p)
    {
        auto set = [](miopenTensorDescriptor_t& d, const std::vector<int64_t>& dims) {
            EXPECT_EQ(miopenCreateTensorDescriptor(&d), miopenStatusSuccess);
            EXPECT_EQ(miopenSet4dTensorDescriptor(d, miopenFloat, int(dims[0]), int(dims[1]), int(dims[2]), int(dims[3])),
                      miopenStatusSuccess);
        };
        EXPECT_EQ(miopenCreate(&handle), miopenStatusSuccess);
        set(x, p.x);
        set(w, p.w);
        set(y, p.y);
        EXPECT_EQ(miopenCreateConvolutionDescriptor(&conv), miopenStatusSuccess);
        EXPECT_EQ(miopenInitConvolutionDescriptor(conv, miopenConvolution, int(p.pad), int(p.pad), int(p.stride),
                                                  int(p.stride), 1, 1),
                  miopenStatusSuccess);
    }
    ~PublicProblem()
    {
        miopenDestroyConvolutionDescriptor(conv);
        miopenDestroyTensorDescriptor(x);
        miopenDestroyTensorDescriptor(w);
        miopenDestroyTensorDescriptor(y);
        miopenDestroy(handle);
    }
};

struct Snapshot
{
    std::string bytes;
    int64_t mtimeNs = 0;
    std::map<std::string, std::pair<uintmax_t, int64_t>> listing; // name -> size, mtime ns

    bool operator==(const Snapshot& o) const
    {
        return bytes == o.bytes && mtimeNs == o.mtimeNs && listing == o.listing;
    }
};

int64_t mtimeNs(const fs::path& p)
{
    struct stat st
    {
    };
    if(::stat(p.c_str(), &st) != 0)
    {
        return -1;
    }
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

Snapshot snapshot(const fs::path& dir, const fs::path& file)
{
    Snapshot s;
    s.bytes = readFile(file);
    s.mtimeNs = mtimeNs(file);
    for(const auto& entry : fs::directory_iterator(dir))
    {
        s.listing[entry.path().filename().string()]
            = {entry.is_regular_file() ? entry.file_size() : 0, mtimeNs(entry.path())};
    }
    return s;
}

std::string listingText(const Snapshot& s)
{
    std::string t;
    for(const auto& [name, sizeTime] : s.listing)
    {
        t += name + " (" + std::to_string(sizeTime.first) + " bytes) ";
    }
    return t;
}

TEST(MiopenProviderTuningDb, ForwardedCallsNeitherWriteNorFollowTheFindDb)
{
    char dirTemplate[] = "/tmp/miopen_provider_finddb_XXXXXX";
    ASSERT_NE(mkdtemp(dirTemplate), nullptr);
    const fs::path dir = dirTemplate;
    ASSERT_EQ(setenv("MIOPEN_USER_DB_PATH", dir.c_str(), 1), 0);

    auto [handle, error] = fe::createHipdnnHandle(); // loads the plugins (outside any stderr capture)
    ASSERT_FALSE(error.is_bad()) << error;

    // 1. The provider's DB-free choice for P.
    const uint64_t choiceBefore = providerChoice(kP);
    ASSERT_NE(choiceBefore, 0u);
    EXPECT_TRUE(fs::is_empty(dir)) << "planning wrote to the DB directory";

    // 2. A public-API Find populates the find-db.
    PublicProblem pub(kP);
    tu::Tensor<float> xt(kP.x), wt(kP.w), yt(kP.y);
    xt.fillUniform(-1.f, 1.f, 3);
    wt.fillUniform(-1.f, 1.f, 4);
    size_t wsBytes = 0;
    ASSERT_EQ(miopenConvolutionForwardGetWorkSpaceSize(pub.handle, pub.w, pub.x, pub.conv, pub.y, &wsBytes),
              miopenStatusSuccess);
    std::vector<uint8_t> ws(wsBytes + 1);
    ASSERT_EQ(miopenSetConvolutionFindMode(pub.conv, miopenConvolutionFindModeNormal), miopenStatusSuccess);
    miopenConvAlgoPerf_t perf[4] = {};
    int returned = 0;
    testing::internal::CaptureStderr();
    const miopenStatus_t found = miopenFindConvolutionForwardAlgorithm(pub.handle, pub.x, xt.data(), pub.w, wt.data(),
                                                                      pub.conv, pub.y, yt.data(), 4, &returned, perf,
                                                                      ws.data(), wsBytes, false);
    (void)testing::internal::GetCapturedStderr();
    ASSERT_EQ(found, miopenStatusSuccess);
    fs::path file;
    for(const auto& entry : fs::directory_iterator(dir))
    {
        if(entry.path().string().size() > 10 && entry.path().string().rfind(".ufdb.txt") == entry.path().string().size() - 9)
        {
            file = entry.path();
        }
    }
    ASSERT_FALSE(file.empty()) << "Find wrote no find-db in " << dir;
    const std::string found_text = readFile(file);
    std::cout << "find-db after Find: " << found_text;

    // 3. A crafted record: the GEMM solver Find did not rank first becomes the fastest.
    const auto eq = found_text.find('=');
    ASSERT_NE(eq, std::string::npos);
    ASSERT_EQ(found_text.find('\n'), found_text.size() - 1) << "expected one record for P";
    const std::string key = found_text.substr(0, eq);
    std::vector<std::string> entries, gemm;
    std::stringstream list(found_text.substr(eq + 1, found_text.size() - eq - 2));
    for(std::string e; std::getline(list, e, ';');)
    {
        entries.push_back(e);
        if(e.find("miopenConvolutionFwdAlgoGEMM") != std::string::npos)
        {
            gemm.push_back(e); // Find writes the record fastest first
        }
    }
    ASSERT_GE(gemm.size(), 2u) << "P needs two GEMM solvers for the crafted record to differ from Find's: "
                               << found_text;
    const std::string craftedEntry = gemm.back();
    const std::string crafted = craftedEntry.substr(0, craftedEntry.find(':'));
    const std::string craftedRest = craftedEntry.substr(craftedEntry.find(','));
    std::string line = key + "=" + crafted + ":1e-06" + craftedRest;
    for(const auto& e : entries)
    {
        if(e != craftedEntry)
        {
            line += ";" + e;
        }
    }
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out << line << "\n";
    }
    std::cout << "crafted record: " << line << std::endl;

    // 4. P and a new problem Q through the plugin: nothing in the DB directory changes.
    const Snapshot before = snapshot(dir, file);
    testing::internal::CaptureStderr();
    runThroughPlugin(*handle, kP);
    runThroughPlugin(*handle, kQ);
    const uint64_t choiceAfter = providerChoice(kP);
    const std::string pluginLog = testing::internal::GetCapturedStderr();
    const Snapshot after = snapshot(dir, file);
    EXPECT_TRUE(before == after) << "the DB directory changed: before " << listingText(before) << "; after "
                                 << listingText(after);
    EXPECT_EQ(before.bytes, after.bytes);
    EXPECT_EQ(before.mtimeNs, after.mtimeNs);
    EXPECT_EQ(choiceAfter, choiceBefore) << "the provider's choice followed the find-db";
    EXPECT_NE(pluginLog.find(" runs "), std::string::npos) << "MIOpen's Info2 log is off: " << pluginLog;
    EXPECT_EQ(pluginLog.find(crafted + " runs "), std::string::npos)
        << "the plugin ran the crafted solver " << crafted << ":\n" << pluginLog;

    // 5. The public API (forwarding disabled) runs the crafted solver for P.
    const float alpha = 1.f, beta = 0.f;
    testing::internal::CaptureStderr();
    const miopenStatus_t ran = miopenConvolutionForward(pub.handle, &alpha, pub.x, xt.data(), pub.w, wt.data(),
                                                        pub.conv, miopenConvolutionFwdAlgoGEMM, &beta, pub.y,
                                                        yt.data(), ws.data(), wsBytes);
    const std::string publicLog = testing::internal::GetCapturedStderr();
    ASSERT_EQ(ran, miopenStatusSuccess);
    EXPECT_NE(publicLog.find(crafted + " runs "), std::string::npos)
        << "the public API did not use the crafted record:\n" << publicLog;
    std::cout << "provider solution for P: " << choiceBefore << "; public miopenConvolutionForward ran " << crafted
              << std::endl;
    fs::remove_all(dir);
}

} // namespace
} // namespace miopen_provider_tests

int main(int argc, char** argv)
{
    // Before any MIOpen call: MIOpen reads its log level once per process.
    setenv("MIOPEN_LOG_LEVEL", "6", 1);
    setenv("MIOPEN_HIPDNN_FORWARDING", "disabled", 1);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
