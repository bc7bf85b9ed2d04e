// The user find-db (see find_db.hpp for the format, the location and the locking protocol).
#include <miopen/conv/find_db.hpp>

#include <miopen/env.hpp>
#include <miopen/errors.hpp>
#include <miopen/logger.hpp>
#include <miopen/threading.hpp>
#include <miopen/version.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <memory>
#include <mutex>
#include <set>
#include <system_error>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace miopen {
namespace conv {

namespace fs = std::filesystem;

namespace {

// Upstream's directional algorithm names (conv_algo_name.cpp), the only values of the fourth
// field. The Bwd-weights FFT name has no solver upstream but is a name upstream can produce.
constexpr std::string_view kAlgorithmNames[] = {
    "miopenConvolutionFwdAlgoGEMM",
    "miopenConvolutionFwdAlgoDirect",
    "miopenConvolutionFwdAlgoFFT",
    "miopenConvolutionFwdAlgoWinograd",
    "miopenConvolutionFwdAlgoImplicitGEMM",
    "miopenConvolutionBwdDataAlgoGEMM",
    "miopenConvolutionBwdDataAlgoDirect",
    "miopenConvolutionBwdDataAlgoFFT",
    "miopenConvolutionBwdDataAlgoWinograd",
    "miopenTransposeBwdDataAlgoGEMM",
    "miopenConvolutionBwdDataAlgoImplicitGEMM",
    "miopenConvolutionBwdWeightsAlgoGEMM",
    "miopenConvolutionBwdWeightsAlgoDirect",
    "miopenConvolutionBwdWeightsAlgoFFT",
    "miopenConvolutionBwdWeightsAlgoWinograd",
    "miopenConvolutionBwdWeightsAlgoImplicitGEMM",
};

constexpr std::size_t kMaxCorruptLineWarnings = 5;
constexpr std::size_t kMaxExcerpt             = 80;
constexpr const char* kDisableEnv             = "MIOPEN_DEBUG_DISABLE_FIND_DB";
constexpr const char* kUserDbPathEnv          = "MIOPEN_USER_DB_PATH";

bool isAsciiAlnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }

// The unused fifth field of a legacy entry (upstream's kernel-cache network config or
// "<unused>"): printable, no separators of this format.
bool isValidLegacyTag(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return c > ' ' && c < 0x7f && c != ',' && c != ';' && c != ':' && c != '=';
    });
}

std::optional<float> parseTime(std::string_view s)
{
    // No sign, no whitespace, no "inf"/"nan": the text must start with a digit or a point.
    if(s.empty() || !(isDigit(s.front()) || s.front() == '.'))
        return std::nullopt;
    float v        = 0.0f;
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
    if(res.ec != std::errc() || res.ptr != s.data() + s.size() || !std::isfinite(v) || v < 0.0f)
        return std::nullopt;
    return v;
}

std::optional<std::size_t> parseWorkspace(std::string_view s)
{
    if(s.empty() || !std::all_of(s.begin(), s.end(), isDigit))
        return std::nullopt;
    std::size_t v  = 0;
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v, 10);
    if(res.ec != std::errc() || res.ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::vector<std::string_view> split(std::string_view s, char sep)
{
    std::vector<std::string_view> parts;
    std::size_t begin = 0;
    for(;;)
    {
        const std::size_t pos = s.find(sep, begin);
        if(pos == std::string_view::npos)
        {
            parts.push_back(s.substr(begin));
            return parts;
        }
        parts.push_back(s.substr(begin, pos - begin));
        begin = pos + 1;
    }
}

// One "<id>:<fields>" entry, current or legacy form.
std::optional<FindDbEntry> parseEntry(std::string_view text)
{
    const std::size_t colon = text.find(':');
    if(colon == std::string_view::npos)
        return std::nullopt;
    const std::string_view id = text.substr(0, colon);
    const auto fields         = split(text.substr(colon + 1), ',');

    std::string_view solver, time, workspace, algorithm;
    if(fields.size() == 3)
    {
        solver    = id;
        time      = fields[0];
        workspace = fields[1];
        algorithm = fields[2];
    }
    else if(fields.size() == 5)
    {
        // Legacy: <algorithm>:<solver>,<time>,<workspace>,<algorithm>,<unused>.
        if(fields[3] != id || !isValidLegacyTag(fields[4]))
            return std::nullopt;
        solver    = fields[0];
        time      = fields[1];
        workspace = fields[2];
        algorithm = fields[3];
    }
    else
    {
        return std::nullopt;
    }

    if(!isValidSolverName(solver) || !isKnownAlgorithmName(algorithm))
        return std::nullopt;
    const auto t  = parseTime(time);
    const auto ws = parseWorkspace(workspace);
    if(!t || !ws)
        return std::nullopt;
    return FindDbEntry{std::string(solver), *t, *ws, std::string(algorithm)};
}

std::string formatTime(float t)
{
    // Shortest text that reads back as the same float (at most ~15 characters for a float).
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof(buf), t);
    if(res.ec != std::errc())
        fail(miopenStatusInternalError, "find-db: cannot format a time");
    return std::string(buf, res.ptr);
}

// A printable excerpt of a corrupt line for the log.
std::string excerpt(std::string_view line)
{
    std::string out;
    for(char c : line.substr(0, kMaxExcerpt))
        out.push_back(c >= ' ' && c < 0x7f ? c : '?');
    if(line.size() > kMaxExcerpt)
        out += "...";
    return out;
}

std::string errnoText(int err) { return std::error_code(err, std::generic_category()).message(); }

// $HOME, else the password database's home directory.
fs::path homeDirectory()
{
    if(const auto home = env::raw("HOME"); home && !home->empty())
        return fs::path(*home);
    struct passwd pw;
    struct passwd* result = nullptr;
    std::vector<char> buf(16384);
    if(getpwuid_r(getuid(), &pw, buf.data(), buf.size(), &result) == 0 && result != nullptr &&
       result->pw_dir != nullptr && result->pw_dir[0] != '\0')
        return fs::path(result->pw_dir);
    // No home at all (a stripped-down container): a per-user directory under the temp dir.
    std::error_code ec;
    fs::path tmp = fs::temp_directory_path(ec);
    if(ec)
        tmp = "/tmp";
    return tmp / ("miopen-home-" + std::to_string(getuid()));
}

// Expands a leading "~" or "~/" (upstream expands the user db path the same way).
fs::path expandUser(const std::string& p)
{
    if(p == "~")
        return homeDirectory();
    if(p.size() >= 2 && p[0] == '~' && p[1] == '/')
        return homeDirectory() / p.substr(2);
    return fs::path(p);
}

const char* architectureName()
{
#if defined(__x86_64__) || defined(_M_X64)
    return "x86_64";
#elif defined(__aarch64__)
    return "aarch64";
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
    return "ppc64le";
#elif defined(__riscv) && (__riscv_xlen == 64)
    return "riscv64";
#else
    return "unknown";
#endif
}

// An owned file descriptor.
class Fd
{
public:
    Fd() = default;
    explicit Fd(int fd) noexcept : _fd(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    Fd(Fd&& o) noexcept : _fd(std::exchange(o._fd, -1)) {}
    Fd& operator=(Fd&& o) noexcept
    {
        if(this != &o)
        {
            reset();
            _fd = std::exchange(o._fd, -1);
        }
        return *this;
    }
    ~Fd() { reset(); }
    int get() const noexcept { return _fd; }
    bool valid() const noexcept { return _fd >= 0; }
    void reset() noexcept
    {
        if(_fd >= 0)
            ::close(_fd);
        _fd = -1;
    }
    // Closes and reports the error of close() (0 or errno).
    int close() noexcept
    {
        const int fd = _fd;
        _fd          = -1;
        return ::close(fd) == 0 ? 0 : errno;
    }

private:
    int _fd = -1;
};

// Removes a temporary file unless committed.
class TempFileGuard
{
public:
    explicit TempFileGuard(std::string path) : _path(std::move(path)) {}
    TempFileGuard(const TempFileGuard&) = delete;
    TempFileGuard& operator=(const TempFileGuard&) = delete;
    ~TempFileGuard()
    {
        if(!_committed)
            ::unlink(_path.c_str());
    }
    void commit() noexcept { _committed = true; }

private:
    std::string _path;
    bool _committed = false;
};

std::string temporaryPrefix(const fs::path& file) { return file.filename().string() + ".tmp."; }

// Unique per process and call; O_EXCL guards against leftovers from a recycled pid.
std::string nextTemporaryName(const fs::path& file)
{
    static std::atomic<unsigned long> counter{0};
    return (file.parent_path() / temporaryPrefix(file)).string() + std::to_string(::getpid()) +
           "." + std::to_string(counter.fetch_add(1));
}

bool writeAll(int fd, const std::string& text, int& err)
{
    const char* p    = text.data();
    std::size_t left = text.size();
    while(left > 0)
    {
        const ssize_t n = ::write(fd, p, left);
        if(n < 0)
        {
            if(errno == EINTR)
                continue;
            err = errno;
            return false;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    return true;
}

// Temporaries of `file` left by a writer killed mid-store. Called with the lock held: no live
// writer owns one then.
void removeStaleTemporaries(const fs::path& file)
{
    const std::string prefix = temporaryPrefix(file);
    std::error_code ec;
    fs::directory_iterator it(file.parent_path(), ec);
    for(; !ec && it != fs::directory_iterator(); it.increment(ec))
    {
        const std::string name = it->path().filename().string();
        if(name.compare(0, prefix.size(), prefix) == 0)
        {
            std::error_code rmEc;
            if(fs::remove(it->path(), rmEc))
                MIOPEN_LOG_I("find-db: removed stale temporary " << it->path());
        }
    }
}

// Writes `text` to a temporary next to `file`, fsyncs it and renames it over `file`. On any
// failure the temporary is removed and the reason returned; "" on success.
std::string replaceFileAtomically(const fs::path& file, const std::string& text)
{
    Fd fd;
    std::string tmp;
    for(int attempt = 0; attempt < 100 && !fd.valid(); ++attempt)
    {
        tmp = nextTemporaryName(file);
        fd  = Fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
        if(!fd.valid() && errno != EEXIST)
            return "cannot create " + tmp + ": " + errnoText(errno);
    }
    if(!fd.valid())
        return "cannot create a unique temporary next to " + file.string();
    TempFileGuard guard(tmp);

    // Keep the permissions of the file being replaced (umask applies to a new file).
    struct stat st;
    if(::stat(file.c_str(), &st) == 0)
        (void)::fchmod(fd.get(), st.st_mode & 07777);

    int err = 0;
    if(!writeAll(fd.get(), text, err))
        return "cannot write " + tmp + ": " + errnoText(err);
    if(::fsync(fd.get()) != 0)
        return "cannot fsync " + tmp + ": " + errnoText(errno);
    if((err = fd.close()) != 0)
        return "cannot close " + tmp + ": " + errnoText(err);
    if(::rename(tmp.c_str(), file.c_str()) != 0)
        return "cannot rename " + tmp + " to " + file.string() + ": " + errnoText(errno);
    guard.commit();

    // Make the rename itself durable; a failure here loses nothing already visible.
    Fd dir(::open(file.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if(dir.valid())
        (void)::fsync(dir.get());
    return {};
}

// An exclusive flock on <file>.lock, held for the object's lifetime.
class ExclusiveLock
{
public:
    explicit ExclusiveLock(const fs::path& file) : _path(file.string() + ".lock")
    {
        _fd = Fd(::open(_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666));
        if(!_fd.valid())
        {
            _error = "cannot open lock file " + _path + ": " + errnoText(errno);
            return;
        }
        while(::flock(_fd.get(), LOCK_EX) != 0)
        {
            if(errno == EINTR)
                continue;
            _error = "cannot lock " + _path + ": " + errnoText(errno);
            _fd.reset();
            return;
        }
    }
    bool locked() const noexcept { return _fd.valid(); }
    const std::string& error() const noexcept { return _error; }

private:
    std::string _path;
    std::string _error;
    Fd _fd; // closing it releases the lock
};

// Corrupt lines of one file version are reported once per process, not at every load().
bool firstReportOf(const struct stat& st)
{
    using Signature = std::tuple<dev_t, ino_t, off_t, time_t, long>;
    static std::mutex mutex;
    static std::set<Signature> reported;
    const Signature sig{st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
    const std::lock_guard<std::mutex> lock(mutex);
    if(reported.size() >= 256)
        reported.clear();
    return reported.insert(sig).second;
}

} // namespace

bool isValidFindDbKey(std::string_view key)
{
    return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return isAsciiAlnum(c) || c == '_' || c == '.' || c == '-';
    });
}

bool isValidSolverName(std::string_view solver)
{
    return !solver.empty() && std::all_of(solver.begin(), solver.end(), [](char c) {
        return isAsciiAlnum(c) || c == '_';
    });
}

bool isKnownAlgorithmName(std::string_view algorithm)
{
    return std::find(std::begin(kAlgorithmNames), std::end(kAlgorithmNames), algorithm) !=
           std::end(kAlgorithmNames);
}

std::optional<FindDbRecord> parseFindDbLine(std::string_view line)
{
    if(!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    const std::size_t eq = line.find('=');
    if(eq == std::string_view::npos)
        return std::nullopt;
    FindDbRecord record;
    const std::string_view key = line.substr(0, eq);
    if(!isValidFindDbKey(key))
        return std::nullopt;
    record.key = std::string(key);

    std::unordered_set<std::string> solvers;
    for(const std::string_view part : split(line.substr(eq + 1), ';'))
    {
        auto entry = parseEntry(part);
        if(!entry || !solvers.insert(entry->solver).second)
            return std::nullopt;
        record.entries.push_back(std::move(*entry));
    }
    return record;
}

std::string formatFindDbLine(const std::string& key, const std::vector<FindDbEntry>& entries)
{
    if(!isValidFindDbKey(key))
        fail(miopenStatusBadParm, "find-db: invalid problem key \"" + excerpt(key) + "\"");
    if(entries.empty())
        fail(miopenStatusBadParm, "find-db: a record needs at least one entry");

    std::unordered_set<std::string> solvers;
    std::string line = key + "=";
    for(std::size_t i = 0; i < entries.size(); ++i)
    {
        const FindDbEntry& e = entries[i];
        if(!isValidSolverName(e.solver))
            fail(miopenStatusBadParm, "find-db: invalid solver name \"" + excerpt(e.solver) + "\"");
        if(!solvers.insert(e.solver).second)
            fail(miopenStatusBadParm, "find-db: solver " + e.solver + " appears twice in a record");
        if(!std::isfinite(e.timeMs) || e.timeMs < 0.0f)
            fail(miopenStatusBadParm, "find-db: invalid time for solver " + e.solver);
        if(!isKnownAlgorithmName(e.algorithm))
            fail(miopenStatusBadParm,
                 "find-db: unknown algorithm name \"" + excerpt(e.algorithm) + "\"");
        if(i > 0)
            line += ';';
        line += e.solver;
        line += ':';
        line += formatTime(e.timeMs);
        line += ',';
        line += std::to_string(e.workspace);
        line += ',';
        line += e.algorithm;
    }
    return line;
}

FindDbFileContents readFindDbFile(const fs::path& file)
{
    FindDbFileContents out;
    Fd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    if(!fd.valid())
    {
        const int err = errno;
        if(err == ENOENT || err == ENOTDIR)
            return out; // Missing
        out.state = FindDbFileContents::State::Unreadable;
        MIOPEN_LOG_W("cannot open find-db " << file << ": " << errnoText(err));
        return out;
    }
    struct stat st;
    if(::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
    {
        out.state = FindDbFileContents::State::Unreadable;
        MIOPEN_LOG_W("find-db " << file << " is not a regular file");
        return out;
    }

    std::string text;
    text.reserve(static_cast<std::size_t>(st.st_size));
    char buf[65536];
    for(;;)
    {
        const ssize_t n = ::read(fd.get(), buf, sizeof(buf));
        if(n == 0)
            break;
        if(n < 0)
        {
            if(errno == EINTR)
                continue;
            out.state = FindDbFileContents::State::Unreadable;
            MIOPEN_LOG_W("cannot read find-db " << file << ": " << errnoText(errno));
            return out;
        }
        text.append(buf, static_cast<std::size_t>(n));
    }
    out.state = FindDbFileContents::State::Read;

    std::unordered_map<std::string, std::size_t> index;
    std::size_t lineNo = 0;
    std::size_t begin  = 0;
    bool report        = false;
    while(begin < text.size())
    {
        std::size_t end = text.find('\n', begin);
        if(end == std::string::npos)
            end = text.size();
        const std::string_view line(text.data() + begin, end - begin);
        begin = end + 1;
        ++lineNo;
        if(line.empty() || line == "\r")
            continue;

        auto record = parseFindDbLine(line);
        if(!record)
        {
            ++out.corruptLines;
            if(out.corruptLines == 1)
                report = firstReportOf(st);
            if(report && out.corruptLines <= kMaxCorruptLineWarnings)
                MIOPEN_LOG_W("find-db " << file << ": skipping corrupt line " << lineNo << ": "
                                        << excerpt(line));
            continue;
        }
        const auto found = index.find(record->key);
        if(found != index.end())
        {
            ++out.duplicateLines;
            out.records[found->second].entries = std::move(record->entries);
            continue;
        }
        index.emplace(record->key, out.records.size());
        out.records.push_back(std::move(*record));
    }
    if(report && out.corruptLines > kMaxCorruptLineWarnings)
        MIOPEN_LOG_W("find-db " << file << ": " << out.corruptLines
                                << " corrupt lines skipped in total");
    return out;
}

FindDb::FindDb() : _file(userDbFile()), _enabled(!env::boolean(kDisableEnv, false)) {}

fs::path FindDb::userDbDirectory()
{
    if(const auto custom = env::raw(kUserDbPathEnv); custom && !custom->empty())
        return expandUser(*custom);
    if(const auto xdg = env::raw("XDG_CONFIG_HOME"); xdg && !xdg->empty() && xdg->front() == '/')
        return fs::path(*xdg) / "miopen";
    return homeDirectory() / ".config" / "miopen";
}

std::string FindDb::deviceBasename()
{
    return std::string("cpu_") + architectureName() + "_" + std::to_string(threadCount());
}

fs::path FindDb::userDbFile()
{
    const std::string suffix = ".HIP." + std::to_string(MIOPEN_VERSION_MAJOR) + "_" +
                               std::to_string(MIOPEN_VERSION_MINOR) + "_" +
                               std::to_string(MIOPEN_VERSION_PATCH) + ".ufdb.txt";
    return userDbDirectory() / (deviceBasename() + suffix);
}

namespace {

// The parsed records of the last few find-db files load() read, keyed by path and checked
// against the file's identity (device, inode, size, mtime) at every load: a file parses once per
// version per process, however many lookups follow (a plan build, Find, immediate-mode queries).
// store() replaces the file by rename, so a stored record is a new version.
class ParsedFindDbCache
{
public:
    using Index     = std::unordered_map<std::string, std::vector<FindDbEntry>>;
    using Signature = std::tuple<dev_t, ino_t, off_t, time_t, long>;

    static std::optional<Signature> signatureOf(const fs::path& file)
    {
        struct stat st;
        if(::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
            return std::nullopt;
        return Signature{st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
    }

    std::shared_ptr<const Index> get(const fs::path& file)
    {
        const auto before = signatureOf(file);
        if(before)
        {
            const std::lock_guard<std::mutex> lock(_mutex);
            for(const auto& e : _entries)
                if(e.path == file && e.signature == *before)
                    return e.index;
        }
        auto index = std::make_shared<Index>();
        for(auto& record : readFindDbFile(file).records)
            (*index)[record.key] = std::move(record.entries);
        // Cached only when the file did not change while it was read.
        if(before && signatureOf(file) == before)
        {
            const std::lock_guard<std::mutex> lock(_mutex);
            _entries.erase(std::remove_if(_entries.begin(), _entries.end(), [&](const Entry& e) { return e.path == file; }),
                           _entries.end());
            if(_entries.size() >= kCapacity)
                _entries.erase(_entries.begin());
            _entries.push_back({file, *before, index});
        }
        return index;
    }

private:
    static constexpr std::size_t kCapacity = 4;
    struct Entry
    {
        fs::path path;
        Signature signature;
        std::shared_ptr<const Index> index;
    };
    std::mutex _mutex;
    std::vector<Entry> _entries;
};

ParsedFindDbCache& parsedFindDbCache()
{
    // Destroyed with the library: libMIOpen_private may be unloaded (a hipDNN plugin that loaded it
    // is closed), and a cache still held then would be memory nothing can free.
    static ParsedFindDbCache cache;
    return cache;
}

} // namespace

std::optional<std::vector<FindDbEntry>> FindDb::load(const std::string& key) const
{
    check(isValidFindDbKey(key), "find-db: invalid problem key");
    if(!_enabled)
        return std::nullopt;
    const auto index = parsedFindDbCache().get(_file);
    const auto it    = index->find(key);
    if(it == index->end())
        return std::nullopt;
    return it->second;
}

bool FindDb::store(const std::string& key, const std::vector<FindDbEntry>& entries) const
{
    // Validate first: a bad key or entry is the caller's bug and must not depend on the disk.
    if(entries.empty())
        check(isValidFindDbKey(key), "find-db: invalid problem key");
    else
        (void)formatFindDbLine(key, entries);
    if(!_enabled)
        return false;

    std::error_code ec;
    const fs::path dir = _file.parent_path();
    fs::create_directories(dir, ec);
    if(ec)
    {
        MIOPEN_LOG_W("find-db not saved: cannot create directory " << dir << ": " << ec.message());
        return false;
    }

    const ExclusiveLock lock(_file);
    if(!lock.locked())
    {
        MIOPEN_LOG_W("find-db not saved: " << lock.error());
        return false;
    }
    removeStaleTemporaries(_file);

    FindDbFileContents contents = readFindDbFile(_file);
    if(contents.state == FindDbFileContents::State::Unreadable)
    {
        MIOPEN_LOG_W("find-db not saved: the existing file "
                     << _file << " cannot be read; not replacing it");
        return false;
    }

    auto& records  = contents.records;
    const auto pos = std::find_if(
        records.begin(), records.end(), [&](const FindDbRecord& r) { return r.key == key; });
    const bool clean = contents.corruptLines == 0 && contents.duplicateLines == 0;
    if(entries.empty())
    {
        if(pos == records.end() && clean)
            return true; // nothing to remove
        if(pos != records.end())
            records.erase(pos);
    }
    else if(pos != records.end())
    {
        if(pos->entries == entries && clean)
            return true; // already recorded exactly
        pos->entries = entries;
    }
    else
    {
        records.push_back(FindDbRecord{key, entries});
    }

    std::string text;
    for(const auto& record : records)
    {
        text += formatFindDbLine(record.key, record.entries);
        text += '\n';
    }

    const std::string error = replaceFileAtomically(_file, text);
    if(!error.empty())
    {
        MIOPEN_LOG_W("find-db not saved: " << error);
        return false;
    }
    return true;
}

} // namespace conv
} // namespace miopen
