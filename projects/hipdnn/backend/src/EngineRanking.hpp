// Measured engine ranking for HIPDNN_HEUR_MODE_FALLBACK (see "Engine order" in the README).
//
// When more than one engine can run a graph and nothing pins one, the heuristics ask this module
// to order the engines. It looks the graph up in a ranking cache keyed by a stable fingerprint of
// the graph (ops, dims, strides, data types, attributes: never tensor uids, names or pointers)
// and of the context (loaded engines, their plugin binaries, the CPU). On a miss it measures:
// each applicable engine builds an execution context on scratch buffers the backend allocates
// and fills deterministically, runs once untimed and then in interleaved timed rounds (scored by
// the median run; a close pair gets more rounds), and the engines are ordered by time (the static
// order breaks near-ties). The ranking is kept in memory for every handle of
// the process and on disk (one text record per line, rewritten atomically), so a problem is
// measured once per machine (a close race in up to kCloseRaceMeasurements processes), except a
// near-tie, which every process measures once and runs in its own measured order.
#pragma once

#include <hipdnn_data_sdk/flatbuffer_utilities/DataObjects.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hipdnn_backend
{

class HandleState;

enum class EngineRankingMode
{
    Measured, // default: measure on a cache miss
    Static,   // upstream's static rule only (HIPDNN_ENGINE_RANKING=static)
};

/// The process's ranking controls (read once from the environment; tests may set their own).
struct EngineRankingSettings
{
    EngineRankingMode mode = EngineRankingMode::Measured;
    /// HIPDNN_HEUR_FALLBACK_ENGINE_ORDER, or the default {"MIOPEN_ENGINE"}.
    std::vector<std::string> fallbackOrder{"MIOPEN_ENGINE"};
    /// True when HIPDNN_HEUR_FALLBACK_ENGINE_ORDER was set: an explicit order pins, no measuring.
    bool fallbackOrderExplicit = false;
    /// Ranking file; empty = in memory only.
    std::string dbPath;

    /// HIPDNN_ENGINE_RANKING (measured|static), HIPDNN_HEUR_FALLBACK_ENGINE_ORDER,
    /// HIPDNN_ENGINE_RANKING_DB (a file path; empty or "none": in memory only), else
    /// $XDG_CACHE_HOME/hipdnn/engine_ranking.txt, else $HOME/.cache/hipdnn/engine_ranking.txt.
    /// Under secure execution (AT_SECURE) no variable is read and the cache stays in memory.
    static EngineRankingSettings fromEnvironment();
};

/// Splits a comma list, trimming blanks and dropping empty items.
std::vector<std::string> splitEngineList(const std::string& list);

/// The canonical text of a graph the fingerprint hashes: every tensor by position (data type,
/// dims, strides, virtual, pass-by-value value), every node with its attributes, uids replaced by
/// tensor positions; the graph's name, id, tensor names and preferred engine are left out.
std::string canonicalGraphText(const hipdnn_data_sdk::data_objects::Graph& graph);

/// FNV-1a 64 of `text` from `basis` (default: the standard offset basis).
uint64_t fnv1a64(std::string_view text, uint64_t basis = 0xcbf29ce484222325ULL);

/// 32 hex digits: two FNV-1a 64 hashes (different bases) of canonicalGraphText.
std::string graphFingerprint(const hipdnn_data_sdk::data_objects::Graph& graph);

/// 16 hex digits over the loaded engines (id, plugin name, version, file size and mtime, sorted)
/// and the CPU (model name, hardware threads).
std::string contextFingerprint(const HandleState& state);

/// One ranking: engine ids best first with their scores in microseconds (< 0: failed), and how
/// many measurements (each in a different process) the scores are made of. `scoresUs`, when not
/// empty, has per engine (same order) its score in each stored measurement, oldest first (the
/// median of the engine's timed runs there; < 0: failed), and `timesUs` is mergeMeasurements of
/// it; every engine has the same number of stored measurements, at most `measurements` (a record
/// written before the lists existed kept one merged score per engine).
struct EngineRankingRecord
{
    std::vector<int64_t> engineIds;
    std::vector<double> timesUs;
    int measurements = 1;
    std::vector<std::vector<double>> scoresUs{};
};

/// Measurements a close race gets (the first and, in later processes, re-measurements), and the
/// most a record stores: a near-tie measured again drops its oldest.
constexpr int kCloseRaceMeasurements = 3;

/// Merges the measurements of a re-measured close race: `scoresUs[e][m]` is engine e's score in
/// measurement m (< 0: failed; every engine has the same count). Within a measurement the
/// engines ran side by side (the two fastest interleaved when close), so each engine's score
/// there divided by that measurement's fastest score is what the machine's state affects least;
/// an engine's merged score is the median of those relative scores over the measurements, times
/// the median of the measurements' fastest scores (to stay in microseconds). With two engines
/// the merged order is the median of their per-measurement ratios: one measurement in which one
/// engine was disturbed throughout cannot decide, as it could under the geometric mean of the
/// scores (engines_bench 2026-12-06 09:47, c3_3x3_128_s2 forward fp32: DNNL / MIOpen 0.970,
/// 1.227, 0.960; geometric mean 1.045, MIOPEN_ENGINE first; median 0.970). An engine that failed
/// in the latest measurement is failed (-1); one measurement: its scores unchanged.
std::vector<double> mergeMeasurements(const std::vector<std::vector<double>>& scoresUs);

/// True when the slower of the record's two fastest engines took at most twice the faster's time
/// (the provisional margin; re-timing inside one measurement uses 10%) and it has had fewer than
/// kCloseRaceMeasurements measurements: a later process measures the graph again and the
/// measurements are merged (mergeMeasurements). One measurement can be disturbed (a neighbour's
/// load, the frequency, the cache state), and on a close race that decides the order.
bool isProvisional(const EngineRankingRecord& record);

/// True when the slower of the record's two fastest engines is within 15% of the faster (the
/// near-tie margin): which of the two is faster then drifts with the machine's state over minutes
/// (engines_bench 2026-12-06 18:55, c3_3x3_128 backward data fp32: DNNL_ENGINE / pass-through
/// 0.89, 0.92, 0.94 in the first three repeats' fresh processes, 1.23 and 1.09 in the last two,
/// both processes running DNNL_ENGINE slow throughout those repeats), so a ranking stored by
/// earlier processes cannot follow it. Every process measures such a record once, at its first
/// use, and runs its own measurement's order (its measurement agreed with that repeat's steady
/// state, within 5%, in 355 of the 357 measurements of that run); the record keeps the last
/// kCloseRaceMeasurements measurements, merged, for the processes that do not measure.
bool isNearTie(const EngineRankingRecord& record);

/// The measured order: positions into `timesUs` (one time per engine in static order; < 0 =
/// failed), best first. Each engine, taken in static order, is placed before the first already
/// placed engine it beats by more than 1%, so near-ties keep the static order; failed engines
/// go last in static order.
std::vector<size_t> orderByMeasuredTime(const std::vector<double>& timesUs);

/// The in-memory cache and its file. Thread-safe.
class EngineRankingDb
{
public:
    /// `path` empty: memory only. Nothing is read until the first lookup.
    explicit EngineRankingDb(std::string path);

    std::optional<EngineRankingRecord> find(const std::string& key);
    /// Stores in memory and rewrites the file (merged with what other processes wrote meanwhile;
    /// temp file + rename, under an flock on "<path>.lock"). An unwritable location warns once
    /// and leaves the ranking in memory.
    void store(const std::string& key, const EngineRankingRecord& record);

    const std::string& path() const { return _path; }
    /// Record lines the last read of the file ignored as corrupt.
    size_t corruptLines() const;

    /// "<key> <ranking>[ measured=<n>]" line of the file format (exposed for tests; the count is
    /// written when above 1). The ranking lists "<id hex>:<µs>" per engine, best first, or, for a
    /// record with scoresUs, "<id hex>:<µs>/<µs>/..." (each stored measurement, oldest first).
    static std::string formatRecord(const std::string& key, const EngineRankingRecord& record);
    /// Parses one line; false for anything malformed.
    static bool parseRecord(const std::string& line, std::string& key, EngineRankingRecord& record);

private:
    void loadLocked();
    std::map<std::string, EngineRankingRecord> readFile(bool warn, size_t& corrupt) const;
    void saveLocked();

    std::string _path;
    mutable std::mutex _mutex;
    bool _loaded = false;
    bool _diskUsable = true;
    size_t _corruptLines = 0;
    std::map<std::string, EngineRankingRecord> _records;
};

/// Process-wide ranking: settings, cache, measurement.
class EngineRanking
{
public:
    static EngineRanking& instance();

    /// A copy of the settings in effect.
    EngineRankingSettings settings() const;

    /// Orders `staticOrder` (indices into state.engines(), the static FALLBACK order) for the
    /// graph: a cached ranking, else a measured one. Engines whose measurement failed go last
    /// (reason logged at WARN). Never throws for a measurement failure; the static order is
    /// returned when nothing could be measured.
    std::vector<size_t> rank(const HandleState& state,
                             const std::vector<uint8_t>& serializedGraph,
                             const std::vector<size_t>& staticOrder);

    /// The known ranking of the graph in this context (memory, else the file), best first, as
    /// indices into state.engines(); measures nothing and asks no plugin. nullopt when the mode is
    /// not measured, the graph has a node kind the fingerprint cannot describe, no record exists,
    /// or the record names an engine that is not loaded now. The record lists the engines that
    /// were applicable (and not _DETERMINISTIC) when it was measured, not necessarily now.
    std::optional<std::vector<size_t>> knownOrder(const HandleState& state, const std::vector<uint8_t>& serializedGraph);

    /// Replaces the settings and starts an empty cache over the new file (tests).
    void reconfigure(EngineRankingSettings settings);
    /// Graphs measured by this process (each is one miss of the cache).
    uint64_t measurementCount() const;

private:
    EngineRanking();
    /// True when `record` is provisional or a near-tie and this process has not measured `key` yet.
    bool measureAgain(const std::string& key, const EngineRankingRecord& record) const;
    /// The record's engine ids best first for this process: its own measured order where it
    /// measured a near-tie, else the record's.
    std::vector<int64_t> orderHere(const std::string& key, const EngineRankingRecord& record) const;
    struct Impl;
    Impl* _impl;
};

} // namespace hipdnn_backend
