// The user find-db: results of Find (solver, time, workspace, algorithm) per convolution
// problem, kept across processes in upstream MIOpen's text format.
//
// Location
//   Directory: $MIOPEN_USER_DB_PATH when set and non-empty, else $XDG_CONFIG_HOME/miopen when
//   XDG_CONFIG_HOME is set and absolute, else $HOME/.config/miopen (upstream's default
//   ~/.config/miopen/). Read at each call / construction, never cached.
//   File: <dir>/<basename>.HIP.<major>_<minor>_<patch>.ufdb.txt (upstream's dev-build suffix; a
//   new library version therefore ignores older user find-dbs, as upstream).
//   Basename: this CPU "device", "cpu_<arch>_<threads>": <arch> is the architecture the library
//   was compiled for (x86_64, aarch64, ppc64le, riscv64, or "unknown") and <threads> the size
//   of the library's thread pool (miopen::threadCount(): MIOPEN_NUM_THREADS, else the hardware
//   concurrency), in decimal. Timings depend on both, as upstream's depend on arch and CU count
//   (upstream's "gfx906_60"); unlike upstream, the count is always decimal after an underscore.
//   Asking for the basename creates the thread pool if it does not exist yet.
//
// Format (upstream's text find-db, one record per line, '\n'-terminated):
//   <key>=<solver>:<time_ms>,<workspace_bytes>,<algorithm>[;<solver>:<time_ms>,...]
//   e.g. (one line)
//     576-4-4-1x1-192-4-4-8-1x1-2x2-3x3-0-NCHW-FP32-F=GemmFwd1x1_0_1:0.77,0,
//     miopenConvolutionFwdAlgoGEMM
//   - key: non-empty, characters [A-Za-z0-9_.-] (the shape of ProblemDescription::dbKey()).
//   - solver: non-empty, [A-Za-z0-9_]; unique within a record.
//   - time_ms: finite, >= 0, decimal or exponent form without sign ("0.77", "1e-05"). Written
//     as the shortest text that reads back as the same float, so times round-trip exactly.
//   - workspace_bytes: decimal digits only, must fit std::size_t.
//   - algorithm: one of upstream's directional names (miopenConvolutionFwdAlgoGEMM, ...,
//     miopenTransposeBwdDataAlgoGEMM; see isKnownAlgorithmName()).
//   - Upstream's legacy entry form "<algorithm>:<solver>,<time>,<ws>,<algorithm>,<unused>" is
//     accepted on read (the two algorithm names must agree) and written back in the current form.
//   A trailing '\r' is ignored and empty lines are skipped silently. Any other malformed line is
//   corrupt: it is skipped with a warning (MIOPEN_LOG_W), the good lines are kept, and the next
//   store() rewrites the file without it. When a key appears on several lines, the last one wins.
//
// Concurrency and durability
//   load() parses a file once per version per process (a small cache keyed by path and checked
//   against the file's device, inode, size and mtime at every load), so repeated lookups cost a
//   stat(), not a parse of the whole file.
//   load() reads without locking: store() only ever replaces the file by rename(), so a reader
//   sees either the old or the new file, never a partial one.
//   store() serialises writers (threads and processes) with flock(LOCK_EX) on the sidecar file
//   <file>.lock (created on first store, never removed: removing it would break the protocol),
//   then re-reads the file, merges, writes <file>.tmp.<pid>.<n> in the same directory, fsyncs
//   it, renames it over the file and fsyncs the directory. The temporary is removed on every
//   failure path; temporaries left by a writer that was killed mid-store are removed by the
//   next store (only the lock holder may own one).
//
// MIOPEN_DEBUG_DISABLE_FIND_DB (1/on/yes/true/enable/enabled), read at construction: load()
// always misses and store() writes nothing.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace miopen {
namespace conv {

struct FindDbEntry
{
    std::string solver;    // upstream solver name, e.g. "GemmFwd1x1_0_1"
    float timeMs          = 0.0f;
    std::size_t workspace = 0; // bytes
    std::string algorithm; // upstream algorithm name, e.g. "miopenConvolutionFwdAlgoGEMM"

    friend bool operator==(const FindDbEntry& a, const FindDbEntry& b)
    {
        return a.solver == b.solver && a.timeMs == b.timeMs && a.workspace == b.workspace &&
               a.algorithm == b.algorithm;
    }
    friend bool operator!=(const FindDbEntry& a, const FindDbEntry& b) { return !(a == b); }
};

// One line of a find-db file.
struct FindDbRecord
{
    std::string key;
    std::vector<FindDbEntry> entries; // never empty in a parsed record
};

// Validators of the format above.
bool isValidFindDbKey(std::string_view key);
bool isValidSolverName(std::string_view solver);
bool isKnownAlgorithmName(std::string_view algorithm);

// Parses one line (without its '\n'; a trailing '\r' is ignored). nullopt when malformed.
// Never throws except std::bad_alloc.
std::optional<FindDbRecord> parseFindDbLine(std::string_view line);

// Formats one record, without the '\n'. Throws miopen::Exception (miopenStatusBadParm) when the
// key or an entry is invalid (see the format above), when `entries` is empty or when a solver
// appears twice; parseFindDbLine(formatFindDbLine(k, e)) gives back exactly {k, e}.
std::string formatFindDbLine(const std::string& key, const std::vector<FindDbEntry>& entries);

// A whole file as read by load() and store().
struct FindDbFileContents
{
    enum class State
    {
        Missing,    // the file does not exist (not an error)
        Read,       // the file was read; `records` and `corruptLines` describe it
        Unreadable, // it exists but could not be read (permissions, not a regular file, I/O)
    };
    State state = State::Missing;
    std::vector<FindDbRecord> records; // file order; one record per key (the last line wins)
    std::size_t corruptLines = 0;      // malformed lines skipped
    std::size_t duplicateLines = 0;    // lines whose key an earlier line already had
};

// Reads and parses `file`. Corrupt lines are counted and logged with MIOPEN_LOG_W: the first
// five one by one, then a total; each version of a file (device, inode, size, mtime) is
// reported once per process, not at every read. Never throws except std::bad_alloc.
FindDbFileContents readFindDbFile(const std::filesystem::path& file);

class FindDb
{
public:
    // Resolves the file from the environment (MIOPEN_USER_DB_PATH, ...) and reads
    // MIOPEN_DEBUG_DISABLE_FIND_DB, now.
    FindDb();

    // The directory and file as described at the top of this header, from the current
    // environment. The directory may not exist.
    static std::filesystem::path userDbDirectory();
    static std::string deviceBasename(); // "cpu_x86_64_16"
    static std::filesystem::path userDbFile();

    const std::filesystem::path& file() const noexcept { return _file; }
    bool enabled() const noexcept { return _enabled; }

    // The entries recorded for `key`, in recorded order, or nullopt (no record, a missing or
    // unreadable file, or the find-db disabled). Throws miopen::Exception (BadParm) only for an
    // invalid key; otherwise only std::bad_alloc.
    std::optional<std::vector<FindDbEntry>> load(const std::string& key) const;

    // Records `entries` for `key`, replacing any previous record; empty `entries` removes the
    // record. Returns true when the file now holds exactly that (also when it already did);
    // false, with a warning, when it could not be persisted (directory not creatable or
    // unwritable, read-only file system, disk full, lock or I/O failure, an existing file that
    // cannot be read) — the previous file is then left as it was and no temporary is left
    // behind. Returns false without a warning when the find-db is disabled. Throws
    // miopen::Exception (BadParm) for an invalid key or entry (a caller bug, see
    // formatFindDbLine), before touching the disk; otherwise only std::bad_alloc.
    bool store(const std::string& key, const std::vector<FindDbEntry>& entries) const;

private:
    std::filesystem::path _file;
    bool _enabled = true;
};

} // namespace conv
} // namespace miopen
