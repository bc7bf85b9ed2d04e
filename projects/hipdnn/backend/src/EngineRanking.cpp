#include "EngineRanking.hpp"

#include "BackendLogger.hpp"
#include "Handle.hpp"
#include "Security.hpp"

#include <hipdnn_data_sdk/flatbuffer_utilities/DataTypeUtils.hpp>
#include <hipdnn_data_sdk/types/BFloat16.hpp>
#include <hipdnn_data_sdk/types/Half.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

namespace hipdnn_backend
{

namespace dobj = hipdnn_data_sdk::data_objects;

// ---------------------------------------------------------------------------------------------
// Settings

std::vector<std::string> splitEngineList(const std::string& list)
{
    std::vector<std::string> items;
    std::string item;
    std::istringstream in(list);
    while(std::getline(in, item, ','))
    {
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if(!item.empty())
        {
            items.push_back(item);
        }
    }
    return items;
}

namespace
{
std::string lowerCase(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

const char* envOrNull(const char* name)
{
    const char* v = std::getenv(name);
    return (v != nullptr && *v != '\0') ? v : nullptr;
}
} // namespace

EngineRankingSettings EngineRankingSettings::fromEnvironment()
{
    EngineRankingSettings s;
    if(secureExecution())
    {
        // No variable is honoured under secure execution; rankings stay in memory.
        return s;
    }
    if(const char* mode = envOrNull("HIPDNN_ENGINE_RANKING"))
    {
        const std::string m = lowerCase(mode);
        if(m == "static")
        {
            s.mode = EngineRankingMode::Static;
        }
        else if(m != "measured")
        {
            HIPDNN_LOG_WARN("HIPDNN_ENGINE_RANKING=" << mode << " is neither 'measured' nor 'static'; using measured");
        }
    }
    if(const char* order = std::getenv("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER"))
    {
        s.fallbackOrder         = splitEngineList(order);
        s.fallbackOrderExplicit = true;
    }
    // HIPDNN_ENGINE_RANKING_DB: an absolute file path, or empty / "none" for memory only; a
    // relative path (it would resolve against the current directory) is ignored with one WARN and
    // the default location is used. XDG_CACHE_HOME and HOME count only when absolute.
    const char* db = std::getenv("HIPDNN_ENGINE_RANKING_DB");
    if(db != nullptr && (*db == '\0' || lowerCase(db) == "none"))
    {
        s.dbPath.clear();
    }
    else if(const std::string path = absolutePathFromEnvironment("HIPDNN_ENGINE_RANKING_DB"); !path.empty())
    {
        s.dbPath = path;
    }
    else if(const char* xdg = envOrNull("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/')
    {
        s.dbPath = std::string(xdg) + "/hipdnn/engine_ranking.txt";
    }
    else if(const char* home = envOrNull("HOME"); home != nullptr && home[0] == '/')
    {
        s.dbPath = std::string(home) + "/.cache/hipdnn/engine_ranking.txt";
    }
    return s;
}

// ---------------------------------------------------------------------------------------------
// Fingerprints

uint64_t fnv1a64(std::string_view text, uint64_t basis)
{
    uint64_t h = basis;
    for(unsigned char c : text)
    {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

namespace
{
std::string hex64(uint64_t v)
{
    char buffer[17];
    std::snprintf(buffer, sizeof(buffer), "%016llx", static_cast<unsigned long long>(v));
    return buffer;
}

/// Writes the canonical text; uids become "t<position>".
class CanonicalWriter
{
public:
    explicit CanonicalWriter(const dobj::Graph& graph)
    {
        if(graph.tensors() != nullptr)
        {
            for(flatbuffers::uoffset_t i = 0; i < graph.tensors()->size(); ++i)
            {
                _position.emplace(graph.tensors()->Get(i)->uid(), i);
            }
        }
    }

    std::ostringstream out;

    void uid(const char* name, int64_t u)
    {
        out << ' ' << name << '=';
        auto it = _position.find(u);
        if(it == _position.end())
        {
            out << "?" << u;
        }
        else
        {
            out << 't' << it->second;
        }
    }
    void uid(const char* name, flatbuffers::Optional<int64_t> u)
    {
        if(u.has_value())
        {
            uid(name, *u);
        }
    }
    void uids(const char* name, const flatbuffers::Vector<int64_t>* v)
    {
        out << ' ' << name << "=[";
        if(v != nullptr)
        {
            for(int64_t u : *v)
            {
                uid("", u);
            }
        }
        out << ']';
    }
    void longs(const char* name, const flatbuffers::Vector<int64_t>* v)
    {
        out << ' ' << name << "=[";
        if(v != nullptr)
        {
            for(flatbuffers::uoffset_t i = 0; i < v->size(); ++i)
            {
                out << (i == 0 ? "" : ",") << v->Get(i);
            }
        }
        out << ']';
    }
    template <typename T>
    void value(const char* name, T v)
    {
        out << ' ' << name << '=' << +v;
    }
    void value(const char* name, flatbuffers::Optional<float> v)
    {
        if(v.has_value())
        {
            out << ' ' << name << '=' << bits(*v);
        }
    }
    static uint32_t bits(float f)
    {
        uint32_t b = 0;
        std::memcpy(&b, &f, sizeof(b));
        return b;
    }
    static uint64_t bits(double d)
    {
        uint64_t b = 0;
        std::memcpy(&b, &d, sizeof(b));
        return b;
    }

    template <typename A>
    void conv(const A& a)
    {
        longs("pre", a.pre_padding());
        longs("post", a.post_padding());
        longs("stride", a.stride());
        longs("dilation", a.dilation());
        value("mode", static_cast<int>(a.conv_mode()));
    }

private:
    std::map<int64_t, size_t> _position;
};

void writeTensorValue(CanonicalWriter& w, const dobj::TensorAttributes& t)
{
    using V = dobj::TensorValue;
    w.value("vt", static_cast<int>(t.value_type()));
    switch(t.value_type())
    {
    case V::Float32Value: w.value("v", CanonicalWriter::bits(t.value_as_Float32Value()->value())); break;
    case V::Float16Value: w.value("v", CanonicalWriter::bits(t.value_as_Float16Value()->value())); break;
    case V::BFloat16Value: w.value("v", CanonicalWriter::bits(t.value_as_BFloat16Value()->value())); break;
    case V::Float8Value: w.value("v", t.value_as_Float8Value()->value()); break;
    case V::Int32Value: w.value("v", t.value_as_Int32Value()->value()); break;
    case V::Float64Value: w.value("v", CanonicalWriter::bits(t.value_as_Float64Value()->value())); break;
    case V::Int64Value: w.value("v", t.value_as_Int64Value()->value()); break;
    case V::BoolValue: w.value("v", static_cast<int>(t.value_as_BoolValue()->value())); break;
    default: break;
    }
}

void writeNode(CanonicalWriter& w, const dobj::Node& node)
{
    using A = dobj::NodeAttributes;
    w.value("c", static_cast<int>(node.compute_data_type()));
    w.value("op", static_cast<int>(node.attributes_type()));
    switch(node.attributes_type())
    {
    case A::ConvolutionFwdAttributes:
    {
        const auto& a = *node.attributes_as_ConvolutionFwdAttributes();
        w.uid("x", a.x_tensor_uid());
        w.uid("w", a.w_tensor_uid());
        w.uid("y", a.y_tensor_uid());
        w.conv(a);
        break;
    }
    case A::ConvolutionBwdAttributes:
    {
        const auto& a = *node.attributes_as_ConvolutionBwdAttributes();
        w.uid("dy", a.dy_tensor_uid());
        w.uid("w", a.w_tensor_uid());
        w.uid("dx", a.dx_tensor_uid());
        w.conv(a);
        break;
    }
    case A::ConvolutionWrwAttributes:
    {
        const auto& a = *node.attributes_as_ConvolutionWrwAttributes();
        w.uid("x", a.x_tensor_uid());
        w.uid("dy", a.dy_tensor_uid());
        w.uid("dw", a.dw_tensor_uid());
        w.conv(a);
        break;
    }
    case A::PointwiseAttributes:
    {
        const auto& a = *node.attributes_as_PointwiseAttributes();
        w.value("mode", static_cast<int>(a.operation()));
        w.value("lo", a.relu_lower_clip());
        w.value("hi", a.relu_upper_clip());
        w.value("slope", a.relu_lower_clip_slope());
        w.uid("axis", a.axis_tensor_uid());
        w.uid("in0", a.in_0_tensor_uid());
        w.uid("in1", a.in_1_tensor_uid());
        w.uid("in2", a.in_2_tensor_uid());
        w.uid("out0", a.out_0_tensor_uid());
        w.value("swish", a.swish_beta());
        w.value("elu", a.elu_alpha());
        w.value("softplus", a.softplus_beta());
        break;
    }
    case A::BatchnormInferenceAttributes:
    {
        const auto& a = *node.attributes_as_BatchnormInferenceAttributes();
        w.uid("x", a.x_tensor_uid());
        w.uid("mean", a.mean_tensor_uid());
        w.uid("invvar", a.inv_variance_tensor_uid());
        w.uid("scale", a.scale_tensor_uid());
        w.uid("bias", a.bias_tensor_uid());
        w.uid("y", a.y_tensor_uid());
        break;
    }
    case A::BatchnormInferenceAttributesVarianceExt:
    {
        const auto& a = *node.attributes_as_BatchnormInferenceAttributesVarianceExt();
        w.uid("x", a.x_tensor_uid());
        w.uid("mean", a.mean_tensor_uid());
        w.uid("var", a.variance_tensor_uid());
        w.uid("scale", a.scale_tensor_uid());
        w.uid("bias", a.bias_tensor_uid());
        w.uid("y", a.y_tensor_uid());
        w.uid("eps", a.epsilon_tensor_uid());
        break;
    }
    case A::BatchnormAttributes:
    {
        const auto& a = *node.attributes_as_BatchnormAttributes();
        w.uid("x", a.x_tensor_uid());
        w.uid("scale", a.scale_tensor_uid());
        w.uid("bias", a.bias_tensor_uid());
        w.uid("eps", a.epsilon_tensor_uid());
        w.uids("peers", a.peer_stats_tensor_uid());
        w.uid("prevmean", a.prev_running_mean_tensor_uid());
        w.uid("prevvar", a.prev_running_variance_tensor_uid());
        w.uid("momentum", a.momentum_tensor_uid());
        w.uid("y", a.y_tensor_uid());
        w.uid("mean", a.mean_tensor_uid());
        w.uid("invvar", a.inv_variance_tensor_uid());
        w.uid("nextmean", a.next_running_mean_tensor_uid());
        w.uid("nextvar", a.next_running_variance_tensor_uid());
        break;
    }
    case A::BatchnormBackwardAttributes:
    {
        const auto& a = *node.attributes_as_BatchnormBackwardAttributes();
        w.uid("dy", a.dy_tensor_uid());
        w.uid("x", a.x_tensor_uid());
        w.uid("mean", a.mean_tensor_uid());
        w.uid("invvar", a.inv_variance_tensor_uid());
        w.uid("scale", a.scale_tensor_uid());
        w.uids("peers", a.peer_stats_tensor_uid());
        w.uid("dx", a.dx_tensor_uid());
        w.uid("dscale", a.dscale_tensor_uid());
        w.uid("dbias", a.dbias_tensor_uid());
        break;
    }
    case A::ResampleFwdAttributes:
    {
        const auto& a = *node.attributes_as_ResampleFwdAttributes();
        w.uid("x", a.x_tensor_uid());
        w.uid("y", a.y_tensor_uid());
        w.uid("index", a.index_tensor_uid());
        w.longs("pre", a.pre_padding());
        w.longs("post", a.post_padding());
        w.longs("stride", a.stride());
        w.longs("window", a.window());
        w.value("mode", static_cast<int>(a.resample_mode()));
        w.value("pad", static_cast<int>(a.padding_mode()));
        w.value("genidx", static_cast<int>(a.generate_index()));
        break;
    }
    case A::ResampleBwdAttributes:
    {
        const auto& a = *node.attributes_as_ResampleBwdAttributes();
        w.uid("dy", a.dy_tensor_uid());
        w.uid("dx", a.dx_tensor_uid());
        w.uid("index", a.index_tensor_uid());
        w.longs("pre", a.pre_padding());
        w.longs("post", a.post_padding());
        w.longs("stride", a.stride());
        w.longs("window", a.window());
        w.value("mode", static_cast<int>(a.resample_mode()));
        w.value("pad", static_cast<int>(a.padding_mode()));
        break;
    }
    case A::ReductionAttributes:
    {
        const auto& a = *node.attributes_as_ReductionAttributes();
        w.value("mode", static_cast<int>(a.mode()));
        w.uid("in", a.in_tensor_uid());
        w.uid("out", a.out_tensor_uid());
        w.value("det", static_cast<int>(a.is_deterministic()));
        break;
    }
    default:
        // An attribute kind this backend does not know: only its type goes into the text, so
        // two such graphs may share a fingerprint; they are not measured (see rank()).
        break;
    }
}

bool knownNodeKinds(const dobj::Graph& graph)
{
    if(graph.nodes() == nullptr)
    {
        return true;
    }
    for(const auto* node : *graph.nodes())
    {
        // The union has gaps (upstream's tags this backend does not define): their names are empty.
        if(node->attributes_type() == dobj::NodeAttributes::NONE
           || dobj::EnumNameNodeAttributes(node->attributes_type())[0] == '\0')
        {
            return false;
        }
    }
    return true;
}
} // namespace

std::string canonicalGraphText(const dobj::Graph& graph)
{
    CanonicalWriter w(graph);
    w.out << "graph";
    w.value("c", static_cast<int>(graph.compute_data_type()));
    w.value("i", static_cast<int>(graph.intermediate_data_type()));
    w.value("io", static_cast<int>(graph.io_data_type()));
    w.value("override", static_cast<int>(graph.is_override_shape_enabled()));
    if(graph.tensors() != nullptr)
    {
        for(flatbuffers::uoffset_t i = 0; i < graph.tensors()->size(); ++i)
        {
            const auto& t = *graph.tensors()->Get(i);
            w.out << "\nt" << i;
            w.value("dt", static_cast<int>(t.data_type()));
            w.longs("d", t.dims());
            w.longs("s", t.strides());
            w.value("virt", static_cast<int>(t.virtual_()));
            w.value("pbv", static_cast<int>(t.is_runtime_pass_by_value()));
            writeTensorValue(w, t);
            w.uid("ragged", t.ragged_offset_tensor_uid());
            w.value("align", t.alignment());
            w.value("raggedmul", t.ragged_offset_multiplier());
        }
    }
    if(graph.nodes() != nullptr)
    {
        for(flatbuffers::uoffset_t i = 0; i < graph.nodes()->size(); ++i)
        {
            w.out << "\nn" << i;
            writeNode(w, *graph.nodes()->Get(i));
        }
    }
    return w.out.str();
}

std::string graphFingerprint(const dobj::Graph& graph)
{
    const std::string text = canonicalGraphText(graph);
    return hex64(fnv1a64(text)) + hex64(fnv1a64(text, 0x84222325cbf29ce4ULL));
}

namespace
{
std::string cpuDescription()
{
    static const std::string kCpu = [] {
        std::string model;
        std::ifstream in("/proc/cpuinfo");
        std::string line;
        while(std::getline(in, line))
        {
            if(line.rfind("model name", 0) == 0)
            {
                model = line.substr(line.find(':') == std::string::npos ? line.size() : line.find(':') + 1);
                break;
            }
        }
        return model + "|" + std::to_string(std::thread::hardware_concurrency());
    }();
    return kCpu;
}
} // namespace

std::string contextFingerprint(const HandleState& state)
{
    std::vector<std::string> items;
    for(const auto& e : state.engines())
    {
        const PluginLibrary& lib = e.plugin->library();
        struct stat st{};
        const bool statted = ::stat(lib.path().c_str(), &st) == 0;
        std::ostringstream item;
        item << hex64(static_cast<uint64_t>(e.id)) << '|' << lib.name() << '|' << lib.version() << '|'
             << (statted ? static_cast<long long>(st.st_size) : -1LL) << '|'
             << (statted ? static_cast<long long>(st.st_mtime) : -1LL);
        items.push_back(item.str());
    }
    std::sort(items.begin(), items.end());
    std::string text = cpuDescription();
    for(const auto& item : items)
    {
        text += "\n" + item;
    }
    return hex64(fnv1a64(text));
}

// ---------------------------------------------------------------------------------------------
// The ranking file: "hipdnn-engine-ranking-v1 <graph 32 hex>-<context 16 hex> <id>:<us>,..."

namespace
{
constexpr const char* kRecordMagic = "hipdnn-engine-ranking-v1";

bool isHex(const std::string& s, size_t n)
{
    return s.size() == n && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}
} // namespace

std::string EngineRankingDb::formatRecord(const std::string& key, const EngineRankingRecord& record)
{
    auto score = [](std::ostringstream& out, double t) {
        if(t < 0)
        {
            out << "failed";
            return;
        }
        char buffer[32];
        std::snprintf(buffer, sizeof(buffer), "%.1f", t);
        out << buffer;
    };
    std::ostringstream out;
    out << kRecordMagic << ' ' << key << ' ';
    for(size_t i = 0; i < record.engineIds.size(); ++i)
    {
        out << (i == 0 ? "" : ",") << hex64(static_cast<uint64_t>(record.engineIds[i])) << ':';
        if(i < record.scoresUs.size() && !record.scoresUs[i].empty())
        {
            for(size_t m = 0; m < record.scoresUs[i].size(); ++m)
            {
                out << (m == 0 ? "" : "/");
                score(out, record.scoresUs[i][m]);
            }
        }
        else
        {
            score(out, i < record.timesUs.size() ? record.timesUs[i] : -1.0);
        }
    }
    if(record.measurements > 1)
    {
        out << " measured=" << record.measurements;
    }
    return out.str();
}

bool EngineRankingDb::parseRecord(const std::string& line, std::string& key, EngineRankingRecord& record)
{
    std::istringstream in(line);
    std::string magic, k, list, count, extra;
    if(!(in >> magic >> k >> list) || magic != kRecordMagic)
    {
        return false;
    }
    int measurements = 1;
    if(in >> count)
    {
        // Optional "measured=<n>", n in 1..kCloseRaceMeasurements; nothing after it.
        constexpr const char* kCount = "measured=";
        const size_t prefix          = std::strlen(kCount);
        if(count.size() != prefix + 1 || count.compare(0, prefix, kCount) != 0 || (in >> extra))
        {
            return false;
        }
        static_assert(kCloseRaceMeasurements <= 9, "the count is one digit");
        measurements = count[prefix] - '0';
        if(measurements < 1 || measurements > kCloseRaceMeasurements)
        {
            return false;
        }
    }
    if(k.size() != 49 || k[32] != '-' || !isHex(k.substr(0, 32), 32) || !isHex(k.substr(33), 16))
    {
        return false;
    }
    EngineRankingRecord r;
    std::istringstream items(list);
    std::string item;
    while(std::getline(items, item, ','))
    {
        const size_t colon = item.find(':');
        if(colon != 16 || !isHex(item.substr(0, 16), 16))
        {
            return false;
        }
        const int64_t id = static_cast<int64_t>(std::strtoull(item.substr(0, 16).c_str(), nullptr, 16));
        // One score per stored measurement, '/'-separated (item.substr(17) + '/' so that an
        // empty last score is seen).
        std::vector<double> scores;
        std::istringstream times(item.substr(17) + "/");
        std::string time;
        while(std::getline(times, time, '/'))
        {
            double us = -1.0;
            if(time != "failed")
            {
                char* end     = nullptr;
                us            = std::strtod(time.c_str(), &end);
                const bool ok = !time.empty() && end == time.c_str() + time.size() && std::isfinite(us) && us >= 0;
                if(!ok)
                {
                    return false;
                }
            }
            scores.push_back(us);
        }
        if(std::find(r.engineIds.begin(), r.engineIds.end(), id) != r.engineIds.end() ||
           static_cast<int>(scores.size()) > measurements ||
           (!r.scoresUs.empty() && scores.size() != r.scoresUs.front().size()))
        {
            return false;
        }
        r.engineIds.push_back(id);
        r.scoresUs.push_back(std::move(scores));
    }
    if(r.engineIds.empty())
    {
        return false;
    }
    r.timesUs      = mergeMeasurements(r.scoresUs);
    r.measurements = measurements;
    key            = k;
    record         = std::move(r);
    return true;
}

EngineRankingDb::EngineRankingDb(std::string path)
    : _path(std::move(path))
{
}

std::map<std::string, EngineRankingRecord> EngineRankingDb::readFile(bool warn, size_t& corrupt) const
{
    std::map<std::string, EngineRankingRecord> records;
    corrupt = 0;
    std::string content, why;
    if(!readCacheFile(_path, content, why))
    {
        if(warn && !why.empty())
        {
            HIPDNN_LOG_WARN("engine ranking file " << _path << " cannot be read (" << why
                                                   << "); rankings are measured again");
        }
        return records;
    }
    std::istringstream in(content);
    std::string line, firstBad;
    size_t lineNumber = 0;
    while(std::getline(in, line))
    {
        ++lineNumber;
        if(line.empty() || line[0] == '#')
        {
            continue;
        }
        std::string key;
        EngineRankingRecord record;
        if(parseRecord(line, key, record))
        {
            records[key] = std::move(record);
        }
        else
        {
            if(corrupt == 0)
            {
                firstBad = std::to_string(lineNumber);
            }
            ++corrupt;
        }
    }
    if(warn && corrupt > 0)
    {
        HIPDNN_LOG_WARN("engine ranking file " << _path << ": " << corrupt << " malformed line(s) ignored (first: line "
                                               << firstBad << ")");
    }
    return records;
}

void EngineRankingDb::loadLocked()
{
    if(_loaded)
    {
        return;
    }
    _loaded = true;
    if(!_path.empty())
    {
        _records = readFile(true, _corruptLines);
    }
}

std::optional<EngineRankingRecord> EngineRankingDb::find(const std::string& key)
{
    std::lock_guard<std::mutex> lock(_mutex);
    loadLocked();
    auto it = _records.find(key);
    if(it == _records.end())
    {
        return std::nullopt;
    }
    return it->second;
}

size_t EngineRankingDb::corruptLines() const
{
    std::lock_guard<std::mutex> lock(_mutex);
    return _corruptLines;
}

void EngineRankingDb::saveLocked()
{
    if(_path.empty() || !_diskUsable)
    {
        return;
    }
    std::string why;
    bool ok = makeParentDirectories(_path, why);
    if(ok)
    {
        CacheFileLock lock(_path); // best effort: without it two writers may drop each other's record
        size_t corrupt = 0;
        auto merged    = readFile(false, corrupt);
        for(const auto& [key, record] : _records)
        {
            merged[key] = record;
        }
        std::string content = "# hipDNN measured engine rankings (HIPDNN_ENGINE_RANKING); one record per line, safe "
                              "to delete\n";
        for(const auto& [key, record] : merged)
        {
            content += formatRecord(key, record) + '\n';
        }
        ok = writeCacheFileAtomically(_path, content, 0644, why);
    }
    if(!ok)
    {
        _diskUsable = false;
        HIPDNN_LOG_WARN("engine ranking file " << _path << " is not writable (" << why
                                               << "); rankings stay in memory for this process");
    }
}

void EngineRankingDb::store(const std::string& key, const EngineRankingRecord& record)
{
    std::lock_guard<std::mutex> lock(_mutex);
    loadLocked();
    _records[key] = record;
    saveLocked();
}

// ---------------------------------------------------------------------------------------------
// Measurement

namespace
{
constexpr int kTimedRuns          = 3;   // interleaved timed rounds (median of k) after one untimed run each
constexpr double kTimedBudgetUs   = 2e6; // no further timed runs once an engine used this much
constexpr double kHopelessFactor  = 3.0; // this much slower than the best after one timed run: no more runs
// An engine must be 1% faster to pass one ranked before it statically: the resolution of the
// product's own bound (a forwarded call may cost up to 1% over pass-through). It was 2% until
// 2026-12-05, which kept MIOPEN_ENGINE first wherever DNNL_ENGINE was 1-2% faster.
constexpr double kStaticTieMargin = 0.01;
// The two fastest within 10%, or with overlapping timed runs (runsOverlap): re-timed, interleaved.
constexpr double kCloseMargin     = 0.10;
// The slower of the two fastest at most 2x the faster: the record is provisional (measured again
// by later processes, see isProvisional). Far wider than kCloseMargin because the disturbance it
// corrects can last a whole measurement for one engine: in full engines_bench runs one engine's
// ranking runs were 15-20% above its steady state throughout a measurement (c4_1x1_256_1024 F
// bf16, DNNL 10.37 against 8.84 ms steady; c5_3x3_512_s2 F fp32, DNNL 31.0 against 25.9 ms), and
// on 2026-12-05 2.6x: c2_1x1_64_64 F fp32 ranked MIOpen 3.51 ms, DNNL 6.55 ms (1.87x apart), while
// the MIOpen runs interleaved with DNNL's were at MIOpen's steady state and DNNL's steady state
// was 2.48 ms.
// Each of those records was final after its one measurement, the slower engine first. Only an
// engine more than twice as slow (another class of engine) is ranked for good at once.
constexpr double kProvisionalMargin = 1.0;
// The two fastest within 15%: a near-tie, measured by every process (see isNearTie). Wide enough
// for the drift seen on c3_3x3_128 (its stored ranking had DNNL_ENGINE 6-11% ahead when the
// machine turned it 9-23% behind); each process that measures pays the ranking in its first call.
constexpr double kNearTieMargin = 0.15;
constexpr int kRefineRounds       = 4;    // interleaved rounds (each runs both engines once)
constexpr std::chrono::milliseconds kSwitchPause{20}; // idle before a run that follows another engine's

struct AlignedFree
{
    void operator()(void* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<void, AlignedFree>;

Buffer allocate(size_t bytes)
{
    const size_t rounded = std::max<size_t>(64, (bytes + 63) / 64 * 64);
    void* p              = std::aligned_alloc(64, rounded);
    if(p == nullptr)
    {
        throw std::bad_alloc();
    }
    std::memset(p, 0, rounded);
    return Buffer(p);
}

/// Deterministic values in [0.25, 1.25) (positive: no NaN from square roots or logs).
float fillValue(size_t i)
{
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u + 0x9e3779b9u;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    return 0.25f + static_cast<float>(x % 4096u) / 4096.0f;
}

void fill(void* data, size_t elements, dobj::DataType type)
{
    using hipdnn_data_sdk::types::bfloat16;
    using hipdnn_data_sdk::types::half;
    for(size_t i = 0; i < elements; ++i)
    {
        const float v = fillValue(i);
        switch(type)
        {
        case dobj::DataType::FLOAT: static_cast<float*>(data)[i] = v; break;
        case dobj::DataType::DOUBLE: static_cast<double*>(data)[i] = v; break;
        case dobj::DataType::HALF: static_cast<half*>(data)[i] = half(static_cast<double>(v)); break;
        case dobj::DataType::BFLOAT16: static_cast<bfloat16*>(data)[i] = bfloat16(static_cast<double>(v)); break;
        case dobj::DataType::INT32: static_cast<int32_t*>(data)[i] = static_cast<int32_t>(i % 3); break;
        case dobj::DataType::INT64: static_cast<int64_t*>(data)[i] = static_cast<int64_t>(i % 3); break;
        case dobj::DataType::INT8: static_cast<int8_t*>(data)[i] = static_cast<int8_t>(i % 3); break;
        case dobj::DataType::UINT8: static_cast<uint8_t*>(data)[i] = static_cast<uint8_t>(i % 3); break;
        default: return; // fp8 and friends stay zero
        }
    }
}

/// The graph's non-virtual, non-value tensors, allocated and filled.
struct ScratchTensors
{
    std::vector<Buffer> memory;
    std::vector<hipdnnPluginDeviceBuffer_t> buffers;
};

ScratchTensors makeScratch(const dobj::Graph& graph)
{
    ScratchTensors s;
    if(graph.tensors() == nullptr)
    {
        return s;
    }
    for(const auto* t : *graph.tensors())
    {
        if(t->virtual_() || t->value_type() != dobj::TensorValue::NONE)
        {
            continue;
        }
        const size_t elementSize = hipdnn_data_sdk::flatbuffer_utilities::dataTypeSize(t->data_type());
        if(elementSize == 0 || t->dims() == nullptr || t->strides() == nullptr
           || t->dims()->size() != t->strides()->size())
        {
            throw std::runtime_error("tensor uid " + std::to_string(t->uid()) + " has no byte size or layout");
        }
        size_t extent = 1;
        for(flatbuffers::uoffset_t d = 0; d < t->dims()->size(); ++d)
        {
            const int64_t dim = t->dims()->Get(d), stride = t->strides()->Get(d);
            if(dim <= 0 || stride < 0)
            {
                extent = 0;
                break;
            }
            extent += static_cast<size_t>(dim - 1) * static_cast<size_t>(stride);
        }
        s.memory.push_back(allocate(extent * elementSize));
        fill(s.memory.back().get(), extent, t->data_type());
        s.buffers.push_back({t->uid(), s.memory.back().get()});
    }
    return s;
}

/// One engine's execution context on the graph's scratch tensors, kept for as many runs as the
/// measurement needs (destroyed with the trial).
class EngineTrial
{
public:
    EngineTrial(const EngineEntry& e, const std::vector<uint8_t>& graphBytes, const ScratchTensors& scratch)
        : _e(&e)
        , _scratch(&scratch)
    {
        const PluginLibrary& lib = e.plugin->library();
        flatbuffers::FlatBufferBuilder fbb;
        fbb.Finish(dobj::CreateEngineConfigDirect(fbb, e.id));
        const hipdnnPluginConstData_t config{fbb.GetBufferPointer(), fbb.GetSize()};
        const hipdnnPluginConstData_t graph{graphBytes.data(), graphBytes.size()};
        hipdnnPluginStatus_t st = lib.fn().createExecutionContext(e.plugin->handle(), &config, &graph, &_context);
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS || _context == nullptr)
        {
            _context = nullptr;
            _failure = lib.describeFailure("hipdnnEnginePluginCreateExecutionContext", st);
            return;
        }
        size_t ws = 0;
        st        = lib.fn().getWorkspaceSizeFromContext(e.plugin->handle(), _context, &ws);
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS)
        {
            _failure = lib.describeFailure("hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext", st);
            return;
        }
        _workspace = ws > 0 ? allocate(ws) : Buffer();
    }
    ~EngineTrial()
    {
        if(_context == nullptr)
        {
            return;
        }
        const PluginLibrary& lib      = _e->plugin->library();
        const hipdnnPluginStatus_t st = lib.fn().destroyExecutionContext(_e->plugin->handle(), _context);
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS)
        {
            HIPDNN_LOG_WARN(lib.describeFailure("hipdnnEnginePluginDestroyExecutionContext", st));
        }
    }
    EngineTrial(const EngineTrial&)            = delete;
    EngineTrial& operator=(const EngineTrial&) = delete;

    bool ready() const { return _failure.empty(); }
    const std::string& name() const { return _e->name; }
    const std::string& failure() const { return _failure; }

    /// One timed execution; false (and failure()) when it fails.
    bool run(double& us)
    {
        const PluginLibrary& lib = _e->plugin->library();
        const auto start         = std::chrono::steady_clock::now();
        const hipdnnPluginStatus_t st
            = lib.fn().executeOpGraph(_e->plugin->handle(), _context, _workspace.get(), _scratch->buffers.data(),
                                      static_cast<uint32_t>(_scratch->buffers.size()));
        us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS)
        {
            _failure = lib.describeFailure("hipdnnEnginePluginExecuteOpGraph", st);
            return false;
        }
        return true;
    }

private:
    const EngineEntry* _e;
    const ScratchTensors* _scratch;
    hipdnnEnginePluginExecutionContext_t _context = nullptr;
    Buffer _workspace;
    std::string _failure;
};

/// Runs the engines' turns and remembers whose ran last. An engine's runtime can keep its worker
/// threads busy-waiting for a while after a run (OpenMP runtimes spin before they sleep: libgomp's
/// workers under oneDNN spin ~6 ms of a core, measured), and that takes a core from whichever
/// engine runs next. Interleaved rounds put most runs right after another engine's, so without a
/// pause the ranking would favour the engine whose runtime spins. A run that follows another
/// engine's therefore starts after kSwitchPause idle (at most ~14 pauses per ranked graph).
class Turns
{
public:
    bool run(EngineTrial& trial, double& us)
    {
        if(_last != nullptr && _last != &trial)
        {
            std::this_thread::sleep_for(kSwitchPause);
        }
        _last = &trial;
        return trial.run(us);
    }

private:
    const EngineTrial* _last = nullptr;
};

/// The median of an engine's timed runs (the mean of the middle two for an even count).
double medianOf(std::vector<double> runs)
{
    std::sort(runs.begin(), runs.end());
    const size_t n = runs.size();
    return n % 2 == 1 ? runs[n / 2] : 0.5 * (runs[n / 2 - 1] + runs[n / 2]);
}

/// Measures the engines of `trials` (null: an engine whose context could not be created; its
/// entry of `failures` says why): each runs once untimed, in order, then up to kTimedRuns rounds
/// of one timed run per engine, the order alternating per round (A B, B A, A B), so that load
/// arriving during one engine's runs falls on the other's too instead of deciding the ranking.
/// Each engine's timed runs are kept in `runs`; its score is their median (what a caller's
/// repeated calls see typically; the best run flattered an engine whose runs vary: oneDNN's wgrad
/// of a 3x3 layer ranked at its best run, 14.5 ms, ran 16.6 ms in steady state, behind MIOpen's
/// 15.6 ms). An engine whose first timed run and untimed run are both more than
/// kHopelessFactor slower than the best first timed run gets no further runs; one whose untimed
/// run alone used the timed budget while being hopeless against another's untimed run is not
/// timed (its untimed time is its score). An engine is not judged on its untimed run because its
/// first run in a process can carry one-time costs (a thread team started, kernels generated
/// lazily, its workspace first touched) that say nothing about its speed. No engine gets further
/// timed runs once its timed runs used kTimedBudgetUs. Returns the scores (< 0: failed).
std::vector<double> measureEngines(std::vector<std::unique_ptr<EngineTrial>>& trials, std::vector<std::string>& failures,
                                   Turns& turns, std::vector<std::vector<double>>& runs)
{
    const size_t n = trials.size();
    runs.assign(n, {});
    std::vector<double> score(n, -1.0), untimed(n, -1.0), spent(n, 0.0);
    std::vector<bool> active(n, false);
    auto fail = [&](size_t i) {
        failures[i] = trials[i] != nullptr ? trials[i]->failure() : failures[i];
        score[i]    = -1.0;
        active[i]   = false;
        runs[i].clear();
    };
    for(size_t i = 0; i < n; ++i)
    {
        double us = 0;
        if(trials[i] == nullptr || !trials[i]->ready() || !turns.run(*trials[i], us))
        {
            fail(i);
            continue;
        }
        untimed[i] = us;
        active[i]  = true;
    }
    for(size_t i = 0; i < n; ++i)
    {
        if(!active[i] || untimed[i] < kTimedBudgetUs)
        {
            continue;
        }
        for(size_t j = 0; j < n; ++j)
        {
            if(j != i && untimed[j] >= 0 && untimed[i] >= kHopelessFactor * untimed[j])
            {
                score[i]  = untimed[i];
                active[i] = false;
                break;
            }
        }
    }
    for(int round = 0; round < kTimedRuns; ++round)
    {
        for(size_t k = 0; k < n; ++k)
        {
            const size_t i = round % 2 == 0 ? k : n - 1 - k;
            if(!active[i] || spent[i] >= kTimedBudgetUs)
            {
                continue;
            }
            double us = 0;
            if(!turns.run(*trials[i], us))
            {
                fail(i);
                continue;
            }
            spent[i] += us;
            runs[i].push_back(us);
        }
        if(round == 0)
        {
            // Every engine still active has exactly its first timed run.
            double fastest = -1.0;
            for(size_t i = 0; i < n; ++i)
            {
                if(active[i] && (fastest < 0 || runs[i].front() < fastest))
                {
                    fastest = runs[i].front();
                }
            }
            // An engine is ruled out only when its untimed run was hopeless too: one run can be
            // disturbed (engines_bench 2026-12-06 12:00, c2_1x1_64_256 forward fp32: DNNL_ENGINE's
            // first timed run took 264 ms, where it runs 8.4 ms, against MIOPEN_ENGINE's 14.5 ms;
            // ruled out, ranked for good behind the 8% slower engine).
            for(size_t i = 0; i < n; ++i)
            {
                if(active[i] && std::min(runs[i].front(), untimed[i]) >= kHopelessFactor * fastest)
                {
                    active[i] = false;
                    HIPDNN_LOG_INFO("engine ranking: " << trials[i]->name() << " ruled out: untimed run "
                                                       << static_cast<long long>(untimed[i]) << " us, first timed run "
                                                       << static_cast<long long>(runs[i].front())
                                                       << " us, the fastest first timed run "
                                                       << static_cast<long long>(fastest) << " us");
                }
            }
        }
    }
    for(size_t i = 0; i < n; ++i)
    {
        if(!runs[i].empty())
        {
            score[i] = medianOf(runs[i]);
        }
    }
    return score;
}

/// Positions of the fastest and second fastest non-failed times (times.size() where there is none).
std::pair<size_t, size_t> twoFastest(const std::vector<double>& times)
{
    size_t first = times.size(), second = times.size();
    for(size_t i = 0; i < times.size(); ++i)
    {
        if(times[i] < 0)
        {
            continue;
        }
        if(first == times.size() || times[i] < times[first])
        {
            second = first;
            first  = i;
        }
        else if(second == times.size() || times[i] < times[second])
        {
            second = i;
        }
    }
    return {first, second};
}

/// True when both engines ran and the second is within `margin` of the first.
bool isCloseRace(const std::vector<double>& times, const std::pair<size_t, size_t>& fastest, double margin)
{
    return fastest.second < times.size() && times[fastest.second] <= (1.0 + margin) * times[fastest.first];
}

/// True when two engines' timed runs overlap: the faster one's slowest run took at least as long as
/// the slower one's fastest. Three runs each do not order such a pair: in a full engines_bench run
/// (2026-12-06, c3_1x1_256_128 forward fp32) DNNL_ENGINE's first measurement ran 18.8, 19.0 and
/// 16.4 ms against MIOPEN_ENGINE's 17.0 ms, 10.5% apart by the medians, so not re-timed; the two
/// later measurements, re-timed, had DNNL_ENGINE 4.6% and 7.3% ahead, and that first one decided
/// the merged order.
bool runsOverlap(const std::vector<double>& fasterRuns, const std::vector<double>& slowerRuns)
{
    return !fasterRuns.empty() && !slowerRuns.empty() &&
           *std::max_element(fasterRuns.begin(), fasterRuns.end()) >=
               *std::min_element(slowerRuns.begin(), slowerRuns.end());
}

/// The two fastest engines measured within kCloseMargin of each other, or whose runs overlap, are
/// timed again in interleaved rounds (A B, B A, A B, ...), so that drift of the machine between
/// the two first measurements (frequency, another process, cache state) cannot decide a close
/// ranking. The runs join each engine's timed runs (the caller scores the engines by the medians
/// of all of them). Returns the number of rounds run.
int refineClosePair(EngineTrial& a, std::vector<double>& aRuns, EngineTrial& b, std::vector<double>& bRuns,
                    Turns& turns)
{
    int rounds = 0;
    double spent = 0;
    for(; rounds < kRefineRounds && spent < kTimedBudgetUs; ++rounds)
    {
        EngineTrial* first  = rounds % 2 == 0 ? &a : &b;
        EngineTrial* second = rounds % 2 == 0 ? &b : &a;
        double us = 0;
        std::vector<double>* firstRuns  = rounds % 2 == 0 ? &aRuns : &bRuns;
        std::vector<double>* secondRuns = rounds % 2 == 0 ? &bRuns : &aRuns;
        if(!turns.run(*first, us))
        {
            break;
        }
        spent += us;
        firstRuns->push_back(us);
        if(!turns.run(*second, us))
        {
            break;
        }
        spent += us;
        secondRuns->push_back(us);
    }
    return rounds;
}

} // namespace

std::vector<size_t> orderByMeasuredTime(const std::vector<double>& times)
{
    std::vector<size_t> placed; // positions into times
    std::vector<size_t> failed;
    for(size_t i = 0; i < times.size(); ++i)
    {
        if(times[i] < 0)
        {
            failed.push_back(i);
            continue;
        }
        auto at = std::find_if(placed.begin(), placed.end(),
                               [&](size_t p) { return times[i] < times[p] * (1.0 - kStaticTieMargin); });
        placed.insert(at, i);
    }
    placed.insert(placed.end(), failed.begin(), failed.end());
    return placed;
}

std::vector<double> mergeMeasurements(const std::vector<std::vector<double>>& scoresUs)
{
    const size_t engines      = scoresUs.size();
    const size_t measurements = engines == 0 ? 0 : scoresUs.front().size();
    std::vector<double> merged(engines, -1.0);
    if(measurements <= 1)
    {
        for(size_t e = 0; e < engines; ++e)
        {
            merged[e] = scoresUs[e].empty() ? -1.0 : scoresUs[e].front();
        }
        return merged;
    }
    std::vector<std::vector<double>> relative(engines);
    std::vector<double> fastest;
    for(size_t m = 0; m < measurements; ++m)
    {
        double best = -1.0;
        for(size_t e = 0; e < engines; ++e)
        {
            const double t = m < scoresUs[e].size() ? scoresUs[e][m] : -1.0;
            best           = t > 0 && (best < 0 || t < best) ? t : best;
        }
        if(best <= 0)
        {
            continue;
        }
        fastest.push_back(best);
        for(size_t e = 0; e < engines; ++e)
        {
            if(m < scoresUs[e].size() && scoresUs[e][m] > 0)
            {
                relative[e].push_back(scoresUs[e][m] / best);
            }
        }
    }
    for(size_t e = 0; e < engines; ++e)
    {
        const bool failedLast = scoresUs[e].size() < measurements || !(scoresUs[e].back() > 0);
        if(!failedLast && !relative[e].empty())
        {
            merged[e] = medianOf(relative[e]) * medianOf(fastest);
        }
    }
    return merged;
}

bool isProvisional(const EngineRankingRecord& record)
{
    return record.measurements < kCloseRaceMeasurements &&
           isCloseRace(record.timesUs, twoFastest(record.timesUs), kProvisionalMargin);
}

bool isNearTie(const EngineRankingRecord& record)
{
    return isCloseRace(record.timesUs, twoFastest(record.timesUs), kNearTieMargin);
}

// ---------------------------------------------------------------------------------------------
// EngineRanking

struct EngineRanking::Impl
{
    mutable std::mutex settingsMutex;
    EngineRankingSettings settings;
    std::shared_ptr<EngineRankingDb> db;
    std::set<std::string> measuredHere; // keys this process measured (under settingsMutex; reset by reconfigure)
    // Near-ties this process measured: its own order, engine ids best first (under settingsMutex).
    std::map<std::string, std::vector<int64_t>> ownOrders;
    std::mutex measureMutex; // one measurement at a time per process (timings would disturb each other)
    std::atomic<uint64_t> measurements{0};
};

EngineRanking::EngineRanking()
    : _impl(new Impl)
{
    _impl->settings = EngineRankingSettings::fromEnvironment();
    _impl->db       = std::make_shared<EngineRankingDb>(_impl->settings.dbPath);
}

EngineRanking& EngineRanking::instance()
{
    static EngineRanking* ranking = new EngineRanking(); // never destroyed: used until exit
    return *ranking;
}

EngineRankingSettings EngineRanking::settings() const
{
    std::lock_guard<std::mutex> lock(_impl->settingsMutex);
    return _impl->settings;
}

void EngineRanking::reconfigure(EngineRankingSettings settings)
{
    std::lock_guard<std::mutex> lock(_impl->settingsMutex);
    _impl->db       = std::make_shared<EngineRankingDb>(settings.dbPath);
    _impl->settings = std::move(settings);
    _impl->measuredHere.clear();
    _impl->ownOrders.clear();
}

bool EngineRanking::measureAgain(const std::string& key, const EngineRankingRecord& record) const
{
    if(!isProvisional(record) && !isNearTie(record))
    {
        return false;
    }
    std::lock_guard<std::mutex> lock(_impl->settingsMutex);
    return _impl->measuredHere.count(key) == 0;
}

std::vector<int64_t> EngineRanking::orderHere(const std::string& key, const EngineRankingRecord& record) const
{
    std::lock_guard<std::mutex> lock(_impl->settingsMutex);
    // The key holds the context (the loaded engines), so the own order ranks the record's engines.
    const auto own = _impl->ownOrders.find(key);
    return own != _impl->ownOrders.end() ? own->second : record.engineIds;
}

uint64_t EngineRanking::measurementCount() const { return _impl->measurements.load(); }

std::optional<std::vector<size_t>> EngineRanking::knownOrder(const HandleState& state,
                                                             const std::vector<uint8_t>& serializedGraph)
{
    std::shared_ptr<EngineRankingDb> db;
    {
        std::lock_guard<std::mutex> lock(_impl->settingsMutex);
        if(_impl->settings.mode != EngineRankingMode::Measured)
        {
            return std::nullopt;
        }
        db = _impl->db;
    }
    const auto& graph = *flatbuffers::GetRoot<dobj::Graph>(serializedGraph.data());
    if(!knownNodeKinds(graph))
    {
        return std::nullopt;
    }
    const std::string key = graphFingerprint(graph) + "-" + contextFingerprint(state);
    const auto record     = db->find(key);
    if(!record.has_value())
    {
        return std::nullopt;
    }
    if(measureAgain(key, *record))
    {
        HIPDNN_LOG_INFO("engine ranking " << key << ": " << (isNearTie(*record) ? "a near-tie" : "a close race")
                                          << " measured " << record->measurements
                                          << " time(s); measured again in this process");
        return std::nullopt;
    }
    std::vector<size_t> order;
    for(int64_t id : orderHere(key, *record))
    {
        const int64_t index = state.engineIndex(id);
        if(index < 0)
        {
            HIPDNN_LOG_INFO("engine ranking " << key << ": the record names engine " << engineDisplayName(id)
                                              << ", which is not loaded; not used");
            return std::nullopt;
        }
        order.push_back(static_cast<size_t>(index));
    }
    return order;
}

std::vector<size_t> EngineRanking::rank(const HandleState& state,
                                        const std::vector<uint8_t>& serializedGraph,
                                        const std::vector<size_t>& staticOrder)
{
    std::shared_ptr<EngineRankingDb> db;
    {
        std::lock_guard<std::mutex> lock(_impl->settingsMutex);
        db = _impl->db;
    }
    const auto& graph   = *flatbuffers::GetRoot<dobj::Graph>(serializedGraph.data());
    const auto& engines = state.engines();
    if(!knownNodeKinds(graph))
    {
        HIPDNN_LOG_INFO("engine ranking: the graph has a node kind this backend cannot fingerprint; static order");
        return staticOrder;
    }
    const std::string key = graphFingerprint(graph) + "-" + contextFingerprint(state);

    // A cached record applies when it ranks exactly the applicable engines.
    auto fromRecord = [&](const EngineRankingRecord& r) -> std::optional<std::vector<size_t>> {
        if(r.engineIds.size() != staticOrder.size())
        {
            return std::nullopt;
        }
        std::vector<size_t> order;
        for(int64_t id : orderHere(key, r))
        {
            auto it = std::find_if(staticOrder.begin(), staticOrder.end(), [&](size_t i) { return engines[i].id == id; });
            if(it == staticOrder.end())
            {
                return std::nullopt;
            }
            order.push_back(*it);
        }
        return order;
    };
    // A provisional record (a close race) or a near-tie not yet measured by this process is
    // measured again and merged with; any other applicable record is the answer (a near-tie this
    // process measured: in its own order).
    std::optional<EngineRankingRecord> previous;
    if(auto cached = db->find(key))
    {
        if(auto order = fromRecord(*cached))
        {
            if(!measureAgain(key, *cached))
            {
                HIPDNN_LOG_INFO("engine ranking " << key << " from the cache: " << EngineRankingDb::formatRecord(key, *cached));
                return *order;
            }
        }
    }

    std::lock_guard<std::mutex> measuring(_impl->measureMutex);
    if(auto cached = db->find(key)) // another thread may have measured it meanwhile
    {
        if(auto order = fromRecord(*cached))
        {
            if(!measureAgain(key, *cached))
            {
                return *order;
            }
            previous = *cached;
        }
    }
    {
        std::lock_guard<std::mutex> lock(_impl->settingsMutex);
        _impl->measuredHere.insert(key); // measured at most once per process, whatever the outcome
    }
    ScratchTensors scratch;
    try
    {
        scratch = makeScratch(graph);
    }
    catch(const std::exception& e)
    {
        HIPDNN_LOG_WARN("engine ranking: cannot allocate the graph's scratch tensors (" << e.what()
                                                                                         << "); static order");
        return staticOrder;
    }
    _impl->measurements.fetch_add(1);
    std::vector<int64_t> staticIds;
    std::vector<std::unique_ptr<EngineTrial>> trials; // kept until the ranking is decided
    std::vector<std::string> failures(staticOrder.size());
    for(size_t index : staticOrder)
    {
        const EngineEntry& e = engines[index];
        staticIds.push_back(e.id);
        try
        {
            trials.push_back(std::make_unique<EngineTrial>(e, serializedGraph, scratch));
        }
        catch(const std::exception& ex)
        {
            trials.push_back(nullptr);
            failures[trials.size() - 1] = ex.what();
        }
    }
    std::vector<double> times;
    std::vector<std::vector<double>> runs;
    Turns turns;
    try
    {
        times = measureEngines(trials, failures, turns, runs);
    }
    catch(const std::exception& ex)
    {
        HIPDNN_LOG_WARN("engine ranking: measuring failed (" << ex.what() << "); static order, not cached");
        return staticOrder;
    }
    double best = -1.0;
    for(size_t i = 0; i < times.size(); ++i)
    {
        if(times[i] < 0)
        {
            HIPDNN_LOG_WARN("engine ranking: " << engines[staticOrder[i]].name
                                               << " failed to run the graph and goes last: " << failures[i]);
        }
        else if(best < 0 || times[i] < best)
        {
            best = times[i];
        }
    }
    // A close race between the two fastest is decided by interleaved re-timing.
    {
        const auto fastest        = twoFastest(times);
        const auto [first, second] = fastest;
        const bool close   = isCloseRace(times, fastest, kCloseMargin);
        const bool overlap = second < times.size() && runsOverlap(runs[first], runs[second]);
        if((close || overlap) && trials[first] != nullptr && trials[second] != nullptr)
        {
            try
            {
                const int rounds = refineClosePair(*trials[first], runs[first], *trials[second], runs[second], turns);
                for(size_t i : {first, second})
                {
                    times[i] = runs[i].empty() ? times[i] : medianOf(runs[i]);
                }
                std::ostringstream why;
                if(close)
                {
                    why << " within " << kCloseMargin * 100 << "%";
                }
                else
                {
                    why << ": timed runs overlap";
                }
                HIPDNN_LOG_INFO("engine ranking " << key << ": " << engines[staticOrder[first]].name << " and "
                                                  << engines[staticOrder[second]].name << why.str() << ", re-timed in "
                                                  << rounds << " interleaved rounds");
            }
            catch(const std::exception& ex)
            {
                HIPDNN_LOG_WARN("engine ranking: re-timing the two fastest engines failed: " << ex.what());
            }
        }
    }
    trials.clear();
    for(size_t i = 0; i < runs.size(); ++i)
    {
        std::ostringstream line;
        for(double us : runs[i])
        {
            line << ' ' << static_cast<long long>(us);
        }
        HIPDNN_LOG_INFO("engine ranking " << key << ": " << engines[staticOrder[i]].name << " timed runs (us):"
                                          << line.str() << "; score " << static_cast<long long>(times[i]));
    }
    EngineRankingRecord record;
    const std::vector<size_t> ownPositions = orderByMeasuredTime(times); // this measurement alone
    // Each engine's scores over the measurements (this one last), in static order: at most
    // kCloseRaceMeasurements, so a near-tie measured again drops its oldest.
    std::vector<std::vector<double>> scores(times.size());
    for(size_t p = 0; p < times.size(); ++p)
    {
        if(previous.has_value() && best >= 0)
        {
            for(size_t q = 0; q < previous->engineIds.size(); ++q)
            {
                if(previous->engineIds[q] == staticIds[p])
                {
                    scores[p] = q < previous->scoresUs.size() ? previous->scoresUs[q]
                                                              : std::vector<double>{previous->timesUs[q]};
                }
            }
            const size_t keep = static_cast<size_t>(kCloseRaceMeasurements - 1);
            if(scores[p].size() > keep)
            {
                scores[p].erase(scores[p].begin(), scores[p].end() - static_cast<std::ptrdiff_t>(keep));
            }
        }
        scores[p].push_back(times[p]);
    }
    if(previous.has_value() && best >= 0)
    {
        record.measurements = std::min(previous->measurements + 1, kCloseRaceMeasurements);
        HIPDNN_LOG_INFO("engine ranking " << key << ": measurement " << record.measurements << " of a close race, merged with "
                                          << EngineRankingDb::formatRecord(key, *previous));
        times = mergeMeasurements(scores);
    }
    const std::vector<size_t> positions = orderByMeasuredTime(times);
    std::vector<size_t> order;
    for(size_t p : positions)
    {
        record.engineIds.push_back(staticIds[p]);
        record.timesUs.push_back(times[p]);
        record.scoresUs.push_back(scores[p]);
        order.push_back(staticOrder[p]);
    }
    if(best < 0)
    {
        HIPDNN_LOG_WARN("engine ranking: no engine could run the graph on scratch buffers; static order, not cached");
        return staticOrder;
    }
    HIPDNN_LOG_INFO("engine ranking " << key << " measured: " << EngineRankingDb::formatRecord(key, record));
    if(isNearTie(record))
    {
        // A near-tie: this process runs in the order it measured (see isNearTie), also on later
        // handles (kept before the record is stored, so a thread reading the record sees it).
        std::vector<int64_t> ownIds;
        order.clear();
        for(size_t p : ownPositions)
        {
            ownIds.push_back(staticIds[p]);
            order.push_back(staticOrder[p]);
        }
        if(ownIds != record.engineIds)
        {
            HIPDNN_LOG_INFO("engine ranking " << key << ": a near-tie; this process runs its own measurement's order, "
                                              << engines[order.front()].name << " first");
        }
        std::lock_guard<std::mutex> lock(_impl->settingsMutex);
        _impl->ownOrders[key] = std::move(ownIds);
    }
    db->store(key, record);
    return order;
}

} // namespace hipdnn_backend
