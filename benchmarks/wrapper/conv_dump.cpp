// conv_dump: the pre-split comparison of outputs and of the find-db (issue 5, "Against the
// pre-split baseline"), public C API only, so it compiles against the baseline's miopen.h too.
//
//   conv_dump dump OUT.bin [--expect-lib-dir=DIR] [--filter=SUBSTR]
//       Runs every problem below in all three directions (F, B, W) with fixed seeds through
//         - every solution GetSolution reports (GetSolutionWorkspaceSize, CompileSolution,
//           Immediate by id)                                              key  <p>/<d>/imm/<id>
//         - Find, then the plain call (alpha 1, beta 0) once per algorithm Find returned
//                                                                          key  <p>/<d>/plain/a<algo>
//         - the plain call with alpha 0.5, beta 0.25 for Find's lowest algorithm id
//                                                                          key  <p>/<d>/blend/a<algo>
//       and records the raw output bytes, Find's results (<p>/<d>/find) and GetSolution's list
//       (<p>/<d>/solutions) in OUT.bin. The library must be the one in DIR when given.
//   conv_dump compare A.bin B.bin [--allow-diff=ID,...] [--db=FILE] [--same-find]
//       Compares every output bitwise; prints one row per key and a summary. Exit 1 when an
//       output differs (unless its solver id is allowed), a key of A is missing in B, or, with
//       --same-find, the Find / GetSolution lists differ. With --db, every Find list of B must
//       equal the best entry per algorithm of one record of that find-db file (fastest first,
//       times as stored): proof that the records were read, not re-measured.
#include "wrapper_common.hpp"

#include <cmath>
#include <map>
#include <set>
#include <sstream>

using namespace wrapper_bench;

namespace {

struct Problem
{
    const char* name;
    miopenDataType_t type;
    int n, c, h, w, k, r, s;
    int padH, padW, strideH, strideW, dilH, dilW, groups;
};

// Small shapes (each under ~1 MFLOP per direction), chosen to reach every solver family:
// 3x3 stride 1 (Winograd), 1x1 stride 1 and 2 (the 1x1 GEMM solvers), stride + dilation +
// padding, groups, a rectangular filter, fp16 and bf16.
const Problem kProblems[] = {
    {"3x3_fp32", miopenFloat, 2, 8, 12, 12, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1},
    {"1x1_fp32", miopenFloat, 2, 16, 10, 10, 8, 1, 1, 0, 0, 1, 1, 1, 1, 1},
    {"1x1_s2_fp32", miopenFloat, 2, 16, 11, 11, 8, 1, 1, 0, 0, 2, 2, 1, 1, 1},
    {"3x3_s2_d2_p2_fp32", miopenFloat, 1, 6, 13, 13, 10, 3, 3, 2, 2, 2, 2, 2, 2, 1},
    {"3x3_g4_fp32", miopenFloat, 2, 8, 9, 9, 12, 3, 3, 1, 1, 1, 1, 1, 1, 4},
    {"3x5_p0x2_s1x2_fp32", miopenFloat, 2, 4, 9, 14, 6, 3, 5, 0, 2, 1, 2, 1, 1, 1},
    {"3x3_fp16", miopenHalf, 2, 8, 10, 10, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1},
    {"1x1_bf16", miopenBFloat16, 2, 8, 8, 8, 16, 1, 1, 0, 0, 1, 1, 1, 1, 1},
    {"3x3_bf16", miopenBFloat16, 1, 4, 7, 7, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1},
};

const char kMagic[8] = {'M', 'I', 'O', 'D', 'U', 'M', 'P', '1'};

struct Record
{
    std::string key;
    std::string payload;
};

// ---- The dump file ---------------------------------------------------------------------------

class DumpWriter
{
public:
    explicit DumpWriter(const std::string& path) : _f(std::fopen(path.c_str(), "wb"))
    {
        if(!_f)
        {
            std::fprintf(stderr, "error: cannot write %s\n", path.c_str());
            std::exit(1);
        }
        std::fwrite(kMagic, 1, sizeof kMagic, _f);
    }
    ~DumpWriter() { std::fclose(_f); }
    DumpWriter(const DumpWriter&) = delete;
    DumpWriter& operator=(const DumpWriter&) = delete;

    void add(const std::string& key, const void* data, std::size_t bytes)
    {
        const std::uint64_t kl = key.size(), pl = bytes;
        std::fwrite(&kl, 8, 1, _f);
        std::fwrite(key.data(), 1, key.size(), _f);
        std::fwrite(&pl, 8, 1, _f);
        std::fwrite(data, 1, bytes, _f);
    }
    void add(const std::string& key, const std::string& text) { add(key, text.data(), text.size()); }

private:
    FILE* _f;
};

std::vector<Record> readDump(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    char magic[8] = {};
    in.read(magic, 8);
    if(!in || std::memcmp(magic, kMagic, 8) != 0)
    {
        std::fprintf(stderr, "error: %s is not a conv_dump file\n", path.c_str());
        std::exit(1);
    }
    std::vector<Record> out;
    std::uint64_t kl = 0;
    while(in.read(reinterpret_cast<char*>(&kl), 8))
    {
        Record r;
        r.key.resize(kl);
        in.read(r.key.data(), static_cast<std::streamsize>(kl));
        std::uint64_t pl = 0;
        in.read(reinterpret_cast<char*>(&pl), 8);
        r.payload.resize(pl);
        in.read(r.payload.data(), static_cast<std::streamsize>(pl));
        if(!in)
        {
            std::fprintf(stderr, "error: %s is truncated\n", path.c_str());
            std::exit(1);
        }
        out.push_back(std::move(r));
    }
    return out;
}

// ---- Running the problems --------------------------------------------------------------------

// The tensors of one direction, in the argument order of its Immediate call.
struct DirectionIo
{
    const char* letter;
    const TensorDesc* a; // first input
    const TensorDesc* b; // second input
    const TensorDesc* o; // output
    const std::vector<unsigned char>* ad;
    const std::vector<unsigned char>* bd;
    std::size_t outBytes;
};

std::string floatBits(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%08x(%.6g)", u, static_cast<double>(f));
    return buf;
}

void runProblem(miopenHandle_t h, const Problem& p, DumpWriter& dump)
{
    ConvDesc conv(p.padH, p.padW, p.strideH, p.strideW, p.dilH, p.dilW, p.groups);
    TensorDesc x(p.type, p.n, p.c, p.h, p.w);
    TensorDesc w(p.type, p.k, p.c / p.groups, p.r, p.s);
    int on = 0, oc = 0, oh = 0, ow = 0;
    WB_CHECK(miopenGetConvolutionForwardOutputDim(conv.d, x.d, w.d, &on, &oc, &oh, &ow));
    TensorDesc y(p.type, on, oc, oh, ow);
    const std::size_t es = elementSize(p.type);
    const std::size_t xCount = static_cast<std::size_t>(p.n) * p.c * p.h * p.w;
    const std::size_t wCount = static_cast<std::size_t>(p.k) * (p.c / p.groups) * p.r * p.s;
    const std::size_t yCount = static_cast<std::size_t>(on) * oc * oh * ow;
    const auto xData  = randomTensor(p.type, xCount, 11);
    const auto wData  = randomTensor(p.type, wCount, 22);
    const auto dyData = randomTensor(p.type, yCount, 33);
    const auto yInit  = randomTensor(p.type, yCount, 44); // beta * y for the blend call
    const auto xInit  = randomTensor(p.type, xCount, 55);
    const auto wInit  = randomTensor(p.type, wCount, 66);

    const DirectionIo dirs[] = {
        {"F", &w, &x, &y, &wData, &xData, yCount * es},
        {"B", &y, &w, &x, &dyData, &wData, xCount * es},
        {"W", &y, &x, &w, &dyData, &xData, wCount * es},
    };
    for(const DirectionIo& d : dirs)
    {
        const std::string base = std::string(p.name) + "/" + d.letter;
        const char dir         = d.letter[0];
        std::vector<unsigned char> out(d.outBytes);
        const std::vector<unsigned char>& init = dir == 'F' ? yInit : dir == 'B' ? xInit : wInit;
        auto poison = [&] { std::memset(out.data(), 0xFF, out.size()); }; // NaN in every type

        // Immediate mode: every solution the library reports.
        std::size_t count = 0;
        if(dir == 'F')
            WB_CHECK(miopenConvolutionForwardGetSolutionCount(h, d.a->d, d.b->d, conv.d, d.o->d, &count));
        else if(dir == 'B')
            WB_CHECK(miopenConvolutionBackwardDataGetSolutionCount(h, d.a->d, d.b->d, conv.d, d.o->d, &count));
        else
            WB_CHECK(miopenConvolutionBackwardWeightsGetSolutionCount(h, d.a->d, d.b->d, conv.d, d.o->d, &count));
        std::vector<std::pair<miopenConvSolution_t, std::vector<unsigned char>>> immOutputs;
        std::vector<miopenConvSolution_t> sols(count);
        std::size_t got = 0;
        if(dir == 'F')
            WB_CHECK(miopenConvolutionForwardGetSolution(h, d.a->d, d.b->d, conv.d, d.o->d, count, &got, sols.data()));
        else if(dir == 'B')
            WB_CHECK(miopenConvolutionBackwardDataGetSolution(h, d.a->d, d.b->d, conv.d, d.o->d, count, &got, sols.data()));
        else
            WB_CHECK(miopenConvolutionBackwardWeightsGetSolution(h, d.a->d, d.b->d, conv.d, d.o->d, count, &got, sols.data()));
        sols.resize(got);
        std::string solText;
        for(const auto& s : sols)
            solText += std::to_string(s.solution_id) + ":" + floatBits(s.time) + ":" + std::to_string(s.workspace_size) +
                       ":a" + std::to_string(static_cast<int>(s.algorithm)) + ";";
        dump.add(base + "/solutions", solText);
        for(const auto& s : sols)
        {
            const std::uint64_t id = s.solution_id;
            std::size_t ws         = 0;
            if(dir == 'F')
            {
                WB_CHECK(miopenConvolutionForwardGetSolutionWorkspaceSize(h, d.a->d, d.b->d, conv.d, d.o->d, id, &ws));
                WB_CHECK(miopenConvolutionForwardCompileSolution(h, d.a->d, d.b->d, conv.d, d.o->d, id));
            }
            else if(dir == 'B')
            {
                WB_CHECK(miopenConvolutionBackwardDataGetSolutionWorkspaceSize(h, d.a->d, d.b->d, conv.d, d.o->d, id, &ws));
                WB_CHECK(miopenConvolutionBackwardDataCompileSolution(h, d.a->d, d.b->d, conv.d, d.o->d, id));
            }
            else
            {
                WB_CHECK(miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(h, d.a->d, d.b->d, conv.d, d.o->d, id, &ws));
                WB_CHECK(miopenConvolutionBackwardWeightsCompileSolution(h, d.a->d, d.b->d, conv.d, d.o->d, id));
            }
            std::vector<unsigned char> wsBuf(ws);
            void* wsPtr = ws ? wsBuf.data() : nullptr;
            poison();
            if(dir == 'F')
                WB_CHECK(miopenConvolutionForwardImmediate(h, d.a->d, d.ad->data(), d.b->d, d.bd->data(), conv.d, d.o->d,
                                                           out.data(), wsPtr, ws, id));
            else if(dir == 'B')
                WB_CHECK(miopenConvolutionBackwardDataImmediate(h, d.a->d, d.ad->data(), d.b->d, d.bd->data(), conv.d,
                                                                d.o->d, out.data(), wsPtr, ws, id));
            else
                WB_CHECK(miopenConvolutionBackwardWeightsImmediate(h, d.a->d, d.ad->data(), d.b->d, d.bd->data(), conv.d,
                                                                   d.o->d, out.data(), wsPtr, ws, id));
            dump.add(base + "/imm/" + std::to_string(id), out.data(), out.size());
            immOutputs.emplace_back(s, out);
        }

        // Find, then the plain call per algorithm Find returned.
        std::size_t ws = 0;
        if(dir == 'F')
            WB_CHECK(miopenConvolutionForwardGetWorkSpaceSize(h, d.a->d, d.b->d, conv.d, d.o->d, &ws));
        else if(dir == 'B')
            WB_CHECK(miopenConvolutionBackwardDataGetWorkSpaceSize(h, d.a->d, d.b->d, conv.d, d.o->d, &ws));
        else
            WB_CHECK(miopenConvolutionBackwardWeightsGetWorkSpaceSize(h, d.a->d, d.b->d, conv.d, d.o->d, &ws));
        std::vector<unsigned char> wsBuf(ws);
        void* wsPtr = ws ? wsBuf.data() : nullptr;
        miopenConvAlgoPerf_t perf[8];
        int returned = 0;
        poison();
        if(dir == 'F')
            WB_CHECK(miopenFindConvolutionForwardAlgorithm(h, d.b->d, d.bd->data(), d.a->d, d.ad->data(), conv.d, d.o->d,
                                                           out.data(), 8, &returned, perf, wsPtr, ws, false));
        else if(dir == 'B')
            WB_CHECK(miopenFindConvolutionBackwardDataAlgorithm(h, d.a->d, d.ad->data(), d.b->d, d.bd->data(), conv.d,
                                                                d.o->d, out.data(), 8, &returned, perf, wsPtr, ws, false));
        else
            WB_CHECK(miopenFindConvolutionBackwardWeightsAlgorithm(h, d.a->d, d.ad->data(), d.b->d, d.bd->data(), conv.d,
                                                                   d.o->d, out.data(), 8, &returned, perf, wsPtr, ws, false));
        std::string findText;
        std::vector<int> algos;
        for(int i = 0; i < returned; ++i)
        {
            const int algo = static_cast<int>(perf[i].fwd_algo);
            findText += "a" + std::to_string(algo) + ":" + floatBits(perf[i].time) + ":" + std::to_string(perf[i].memory) + ";";
            algos.push_back(algo);
        }
        dump.add(base + "/find", findText);
        std::sort(algos.begin(), algos.end());

        auto plain = [&](int algo, float alpha, float beta) {
            if(beta == 0.0f)
                poison();
            else
                out = init;
            if(dir == 'F')
                WB_CHECK(miopenConvolutionForward(h, &alpha, d.b->d, d.bd->data(), d.a->d, d.ad->data(), conv.d,
                                                  static_cast<miopenConvFwdAlgorithm_t>(algo), &beta, d.o->d, out.data(),
                                                  wsPtr, ws));
            else if(dir == 'B')
                WB_CHECK(miopenConvolutionBackwardData(h, &alpha, d.a->d, d.ad->data(), d.b->d, d.bd->data(), conv.d,
                                                       static_cast<miopenConvBwdDataAlgorithm_t>(algo), &beta, d.o->d,
                                                       out.data(), wsPtr, ws));
            else
                WB_CHECK(miopenConvolutionBackwardWeights(h, &alpha, d.a->d, d.ad->data(), d.b->d, d.bd->data(), conv.d,
                                                          static_cast<miopenConvBwdWeightsAlgorithm_t>(algo), &beta, d.o->d,
                                                          out.data(), wsPtr, ws));
        };
        for(int algo : algos)
        {
            plain(algo, 1.0f, 0.0f);
            dump.add(base + "/plain/a" + std::to_string(algo), out.data(), out.size());
            // Which solutions of that algorithm gave the same bits in immediate mode: the solver
            // the plain call ran (the API does not name it).
            std::string matches;
            for(const auto& io : immOutputs)
                if(static_cast<int>(io.first.algorithm) == algo && io.second == out)
                    matches += std::to_string(io.first.solution_id) + ";";
            dump.add(base + "/plain/a" + std::to_string(algo) + "/matches", matches);
        }
        if(!algos.empty())
        {
            plain(algos.front(), 0.5f, 0.25f);
            dump.add(base + "/blend/a" + std::to_string(algos.front()), out.data(), out.size());
        }
    }
}

// ---- Comparing ---------------------------------------------------------------------------------

const Problem* problemOf(const std::string& key)
{
    const std::string name = key.substr(0, key.find('/'));
    for(const Problem& p : kProblems)
        if(name == p.name)
            return &p;
    return nullptr;
}

float elementAsFloat(miopenDataType_t t, const std::string& bytes, std::size_t i)
{
    if(t == miopenFloat)
    {
        float f;
        std::memcpy(&f, bytes.data() + 4 * i, 4);
        return f;
    }
    std::uint16_t v;
    std::memcpy(&v, bytes.data() + 2 * i, 2);
    if(t == miopenBFloat16)
    {
        const std::uint32_t u = static_cast<std::uint32_t>(v) << 16;
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    const int e = (v >> 10) & 0x1F, m = v & 0x3FF;
    const float mag = e == 0 ? std::ldexp(static_cast<float>(m), -24)
                             : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(static_cast<float>(m + 1024), e - 25);
    return (v & 0x8000) ? -mag : mag;
}

// An algorithm as the find-db stores it: its enumerator name (miopenConvolutionFwdAlgoGEMM,
// ...BwdDataAlgoWinograd, ...) or a number.
int algorithmOf(const std::string& text)
{
    const auto at = text.rfind("Algo");
    if(at == std::string::npos)
        return std::atoi(text.c_str());
    const std::string n = text.substr(at + 4);
    return n == "GEMM" ? 0 : n == "Direct" ? 1 : n == "FFT" ? 2 : n == "Winograd" ? 3 : n == "ImplicitGEMM" ? 5 : -1;
}

// "<solver>:<time>,<ws>,<algo>;..." records of one find-db file, as (algo, time, ws) lists of
// the best entry per algorithm, fastest first: what Find returns on a hit.
std::vector<std::string> dbFindLists(const std::string& path)
{
    std::ifstream in(path);
    if(!in)
    {
        std::fprintf(stderr, "error: cannot read find-db %s\n", path.c_str());
        std::exit(1);
    }
    std::vector<std::string> lists;
    std::string line;
    while(std::getline(in, line))
    {
        const auto eq = line.find('=');
        if(eq == std::string::npos)
            continue;
        struct Entry
        {
            float time;
            std::size_t ws;
            int algo;
        };
        std::vector<Entry> entries;
        std::stringstream ss(line.substr(eq + 1));
        std::string item;
        while(std::getline(ss, item, ';'))
        {
            const auto colon = item.find(':');
            if(colon == std::string::npos)
                continue;
            Entry e{};
            const std::string v = item.substr(colon + 1);
            const auto c1 = v.find(','), c2 = v.find(',', c1 + 1);
            e.time = std::strtof(v.substr(0, c1).c_str(), nullptr);
            e.ws   = std::strtoull(v.substr(c1 + 1, c2 - c1 - 1).c_str(), nullptr, 10);
            e.algo = algorithmOf(v.substr(c2 + 1));
            entries.push_back(e);
        }
        std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.time < b.time; });
        std::set<int> seen;
        std::string text;
        for(const Entry& e : entries)
            if(seen.insert(e.algo).second)
                text += "a" + std::to_string(e.algo) + ":" + floatBits(e.time) + ":" + std::to_string(e.ws) + ";";
        lists.push_back(text);
    }
    return lists;
}

// The entries "<id>:...;" of list b whose id also appears in list a, in b's order.
std::string solutionsKnownTo(const std::string& b, const std::string& a)
{
    std::set<std::string> idsA;
    std::stringstream sa(a);
    std::string item;
    while(std::getline(sa, item, ';'))
        idsA.insert(item.substr(0, item.find(':')));
    std::string out;
    std::stringstream sb(b);
    while(std::getline(sb, item, ';'))
        if(idsA.count(item.substr(0, item.find(':'))))
            out += item + ";";
    return out;
}

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string listOf(const std::vector<Record>& records, const std::string& key)
{
    for(const auto& r : records)
        if(r.key == key)
            return r.payload;
    return {};
}

std::set<std::uint64_t> parseIds(const std::string& s, char sep = ',')
{
    std::set<std::uint64_t> ids;
    std::stringstream ss(s);
    std::string item;
    while(std::getline(ss, item, sep))
        if(!item.empty())
            ids.insert(std::strtoull(item.c_str(), nullptr, 10));
    return ids;
}

int compare(const std::string& pathA, const std::string& pathB, const std::set<std::uint64_t>& allowDiff,
            const std::string& dbPath, bool sameFind)
{
    const auto a = readDump(pathA), b = readDump(pathB);
    std::map<std::string, std::string> mb;
    for(const auto& r : b)
        mb[r.key] = r.payload;
    std::set<std::string> keysA;
    int same = 0, differ = 0, allowed = 0, missing = 0, listDiffs = 0;
    std::printf("%-44s %-10s %s\n", "key (problem/direction/path/solver)", "result", "detail");
    for(const auto& r : a)
    {
        keysA.insert(r.key);
        const auto it = mb.find(r.key);
        const bool isList = endsWith(r.key, "/find") || endsWith(r.key, "/solutions") || endsWith(r.key, "/matches");
        if(it == mb.end())
        {
            std::printf("%-44s %-10s only in A\n", r.key.c_str(), "MISSING");
            ++missing;
            continue;
        }
        if(isList)
        {
            // Solvers added after A (only in B's list) are left out of a GetSolution list's
            // comparison; their outputs show as "only in B" below.
            const std::string bList = endsWith(r.key, "/solutions")
                                          ? solutionsKnownTo(it->second, r.payload)
                                          : it->second;
            if(r.payload != bList)
            {
                ++listDiffs;
                if(sameFind)
                    std::printf("%-44s %-10s A: %s\n%-44s %-10s B: %s\n", r.key.c_str(), "LIST-DIFF", r.payload.c_str(), "",
                                "", bList.c_str());
            }
            continue;
        }
        if(r.payload == it->second)
        {
            ++same;
            std::printf("%-44s %-10s %zu bytes\n", r.key.c_str(), "identical", r.payload.size());
            continue;
        }
        const Problem* p = problemOf(r.key);
        const miopenDataType_t t = p ? p->type : miopenFloat;
        const std::size_t n = std::min(r.payload.size(), it->second.size()) / elementSize(t);
        std::size_t nd = 0;
        double maxAbs = 0, maxRef = 0;
        for(std::size_t i = 0; i < n; ++i)
        {
            const float x = elementAsFloat(t, r.payload, i), y = elementAsFloat(t, it->second, i);
            maxRef = std::max(maxRef, std::fabs(static_cast<double>(x)));
            if(std::memcmp(r.payload.data() + i * elementSize(t), it->second.data() + i * elementSize(t), elementSize(t)) != 0)
            {
                ++nd;
                maxAbs = std::max(maxAbs, std::fabs(static_cast<double>(x) - y));
            }
        }
        // The solver ids behind the output: the id of an immediate call; for a plain or blend
        // call, the immediate solutions of A with the same bits (plain/aN/matches).
        std::set<std::uint64_t> ids;
        if(r.key.find("/imm/") != std::string::npos)
            ids.insert(std::strtoull(r.key.c_str() + r.key.rfind('/') + 1, nullptr, 10));
        else
        {
            std::string mkey = r.key;
            mkey.replace(mkey.find(r.key.find("/blend/") != std::string::npos ? "/blend/" : "/plain/"), 7, "/plain/");
            ids = parseIds(listOf(a, mkey + "/matches"), ';');
        }
        const bool ok = !ids.empty() && std::all_of(ids.begin(), ids.end(), [&](std::uint64_t id) { return allowDiff.count(id) > 0; });
        std::printf("%-44s %-10s %zu of %zu elements differ, max |A-B| %.3g (max |A| %.3g)%s\n", r.key.c_str(),
                    ok ? "differs" : "DIFFERS", nd, n, maxAbs, maxRef, ok ? " [allowed: solver changed after the split]" : "");
        (ok ? allowed : differ)++;
    }
    int onlyB = 0;
    for(const auto& r : b)
        if(!keysA.count(r.key))
        {
            std::printf("%-44s %-10s only in B\n", r.key.c_str(), "new");
            ++onlyB;
        }
    int dbMismatch = 0;
    if(!dbPath.empty())
    {
        const auto lists = dbFindLists(dbPath);
        for(const auto& r : b)
            if(endsWith(r.key, "/find"))
            {
                const bool found = std::find(lists.begin(), lists.end(), r.payload) != lists.end();
                std::printf("%-44s %-10s %s\n", r.key.c_str(), found ? "db-record" : "NOT-IN-DB", r.payload.c_str());
                dbMismatch += found ? 0 : 1;
            }
    }
    std::printf("\nsummary: %d outputs identical, %d differ (not allowed), %d differ (allowed), %d missing in B, "
                "%d only in B; %d Find/GetSolution lists differ%s", same, differ, allowed, missing, onlyB, listDiffs,
                sameFind ? " (must be 0)" : " (timings: informational)");
    if(!dbPath.empty())
        std::printf("; %d Find lists not taken from the find-db", dbMismatch);
    std::printf("\n");
    const bool fail = differ > 0 || missing > 0 || (sameFind && listDiffs > 0) || dbMismatch > 0;
    std::printf("verdict: %s\n", fail ? "FAIL" : "PASS");
    return fail ? 1 : 0;
}

void usage()
{
    std::fprintf(stderr, "usage: conv_dump dump OUT.bin [--expect-lib-dir=DIR] [--filter=SUBSTR]\n"
                         "       conv_dump compare A.bin B.bin [--allow-diff=ID,...] [--db=FILE] [--same-find]\n");
}

} // namespace

int main(int argc, char** argv)
{
    if(argc < 3)
    {
        usage();
        return 2;
    }
    const std::string mode = argv[1];
    if(mode == "dump")
    {
        std::string expectDir, filter;
        for(int i = 3; i < argc; ++i)
        {
            const std::string a = argv[i];
            if(startsWith(a, "--expect-lib-dir="))
                expectDir = a.substr(17);
            else if(startsWith(a, "--filter="))
                filter = a.substr(9);
            else
            {
                usage();
                return 2;
            }
        }
        reportLibrary(expectDir);
        Handle h;
        DumpWriter dump(argv[2]);
        for(const Problem& p : kProblems)
            if(filter.empty() || std::string(p.name).find(filter) != std::string::npos)
                runProblem(h.h, p, dump);
        return 0;
    }
    if(mode == "compare" && argc >= 4)
    {
        std::set<std::uint64_t> allow;
        std::string db;
        bool sameFind = false;
        for(int i = 4; i < argc; ++i)
        {
            const std::string a = argv[i];
            if(startsWith(a, "--allow-diff="))
                allow = parseIds(a.substr(13));
            else if(startsWith(a, "--db="))
                db = a.substr(5);
            else if(a == "--same-find")
                sameFind = true;
            else
            {
                usage();
                return 2;
            }
        }
        return compare(argv[2], argv[3], allow, db, sameFind);
    }
    usage();
    return 2;
}
