// Helpers shared by the find-db tests: a fresh MIOPEN_USER_DB_PATH per test, scoped environment
// variables, captured warnings, file helpers and a fork-and-wait helper.
#pragma once

#include <miopen/conv/find_db.hpp>
#include <miopen/logger.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

namespace find_db_test {

namespace fs = std::filesystem;
using miopen::conv::FindDb;
using miopen::conv::FindDbEntry;

// Sets (value != nullptr) or unsets an environment variable; restores the old state.
class ScopedEnv
{
public:
    ScopedEnv(const char* name, const char* value) : _name(name)
    {
        if(const char* old = std::getenv(name))
            _old = std::string(old);
        if(value != nullptr)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;
    ~ScopedEnv()
    {
        if(_old)
            ::setenv(_name.c_str(), _old->c_str(), 1);
        else
            ::unsetenv(_name.c_str());
    }

private:
    std::string _name;
    std::optional<std::string> _old;
};

inline FindDbEntry entry(const std::string& solver,
                         float timeMs,
                         std::size_t workspace,
                         const std::string& algorithm = "miopenConvolutionFwdAlgoGEMM")
{
    return FindDbEntry{solver, timeMs, workspace, algorithm};
}

inline std::string readText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void writeText(const fs::path& p, const std::string& text)
{
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
    ASSERT_TRUE(out.good()) << p;
}

inline std::set<std::string> listDir(const fs::path& dir)
{
    std::set<std::string> names;
    for(const auto& e : fs::directory_iterator(dir))
        names.insert(e.path().filename().string());
    return names;
}

// Runs `body` in a forked child and returns its exit status (or 1000 + signal when killed).
// The child never returns into gtest: it leaves with _exit(body()).
inline int runInChild(const std::function<int()>& body)
{
    const pid_t pid = ::fork();
    if(pid < 0)
        return -1;
    if(pid == 0)
    {
        int rc = 0;
        try
        {
            rc = body();
        }
        catch(...)
        {
            rc = 120;
        }
        ::_exit(rc);
    }
    int status = 0;
    while(::waitpid(pid, &status, 0) < 0)
    {
        if(errno != EINTR)
            return -2;
    }
    if(WIFEXITED(status))
        return WEXITSTATUS(status);
    if(WIFSIGNALED(status))
        return 1000 + WTERMSIG(status);
    return -3;
}

// In a forked child: as root, become "nobody" (uid/gid 65534) so that file permissions bind;
// as anyone else, nothing to do. False when dropping failed.
inline bool dropRootPrivileges()
{
    if(::geteuid() != 0)
        return true;
    return ::setgroups(0, nullptr) == 0 && ::setgid(65534) == 0 && ::setuid(65534) == 0 &&
           ::geteuid() == 65534;
}

// What the library logs while alive (MIOPEN_LOG_LEVEL=level for the duration; 4: warnings).
class CapturedLog
{
public:
    explicit CapturedLog(const char* level = "4") : _level("MIOPEN_LOG_LEVEL", level)
    {
        miopen::resetLoggingForTests();
        ::testing::internal::CaptureStderr();
    }
    CapturedLog(const CapturedLog&) = delete;
    CapturedLog& operator=(const CapturedLog&) = delete;
    ~CapturedLog()
    {
        if(!_stopped)
            (void)stop();
    }
    std::string stop()
    {
        _stopped         = true;
        std::string text = ::testing::internal::GetCapturedStderr();
        return text;
    }

private:
    ScopedEnv _level;
    bool _stopped = false;
};

inline std::size_t countOccurrences(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for(std::size_t pos = text.find(what); pos != std::string::npos;
        pos             = text.find(what, pos + what.size()))
        ++n;
    return n;
}

// Each test gets its own fresh MIOPEN_USER_DB_PATH directory, removed afterwards.
class FindDbTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        std::string tmpl = (fs::temp_directory_path() / "miopen-finddb-XXXXXX").string();
        ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
        _root = tmpl;
        _dir  = _root / "db";
        fs::create_directory(_dir);
        _dbPath.emplace("MIOPEN_USER_DB_PATH", _dir.c_str());
        _disable.emplace("MIOPEN_DEBUG_DISABLE_FIND_DB", nullptr);
    }
    void TearDown() override
    {
        _disable.reset();
        _dbPath.reset();
        // Undo any chmod a test made before removing the tree.
        std::error_code ec;
        for(auto it = fs::recursive_directory_iterator(_root, ec);
            !ec && it != fs::recursive_directory_iterator();
            it.increment(ec))
            fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
        fs::permissions(_root, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(_root, ec);
        miopen::resetLoggingForTests();
    }

    const fs::path& root() const { return _root; } // scratch space outside the db directory
    const fs::path& dir() const { return _dir; }   // MIOPEN_USER_DB_PATH
    fs::path dbFile() const { return FindDb::userDbFile(); }
    fs::path lockFile() const { return fs::path(dbFile().string() + ".lock"); }

private:
    fs::path _root, _dir;
    std::optional<ScopedEnv> _dbPath, _disable;
};

} // namespace find_db_test
