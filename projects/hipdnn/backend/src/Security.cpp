#include "Security.hpp"

#include "BackendLogger.hpp"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hipdnn_backend
{

namespace
{
std::atomic<int>& secureOverride()
{
    static std::atomic<int> value{-1};
    return value;
}

std::string directoryOf(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    if(slash == std::string::npos)
    {
        return ".";
    }
    return slash == 0 ? "/" : path.substr(0, slash);
}

/// Opens `path` for reading without following a final symbolic link another user owns.
/// Returns the fd, -1 with errno ENOENT when absent, else -1 with `why`.
int openNoForeignSymlink(const std::string& path, std::string& why)
{
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if(fd >= 0 || errno != ELOOP)
    {
        if(fd < 0 && errno != ENOENT)
        {
            why = std::string("cannot open: ") + std::strerror(errno);
        }
        return fd;
    }
    struct stat link{};
    if(::lstat(path.c_str(), &link) != 0)
    {
        why = std::string("cannot lstat: ") + std::strerror(errno);
        return -1;
    }
    if(!mayFollowSymlink(link.st_uid, ::geteuid()))
    {
        why = "it is a symbolic link owned by uid " + std::to_string(link.st_uid)
              + ", not by this process's user (" + std::to_string(::geteuid()) + "); not followed";
        errno = EPERM;
        return -1;
    }
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if(fd < 0 && errno != ENOENT)
    {
        why = std::string("cannot open: ") + std::strerror(errno);
    }
    return fd;
}
} // namespace

bool secureExecution()
{
    const int forced = secureOverride().load(std::memory_order_relaxed);
    if(forced >= 0)
    {
        return forced != 0;
    }
    return getauxval(AT_SECURE) != 0;
}

void setSecureExecutionForTesting(int value)
{
    secureOverride().store(value < 0 ? -1 : (value != 0 ? 1 : 0), std::memory_order_relaxed);
}

const char* environmentValue(const char* name)
{
    return secureExecution() ? nullptr : std::getenv(name);
}

EnvironmentPath decideEnvironmentPath(const char* name, const char* value, bool secure)
{
    EnvironmentPath out;
    if(value == nullptr || *value == '\0')
    {
        return out;
    }
    if(secure)
    {
        out.warning = std::string(name) + " ignored under secure execution (set-user-ID or similar program)";
        return out;
    }
    if(value[0] != '/')
    {
        out.warning = std::string(name) + "='" + value
                      + "' ignored: it must be an absolute path (a relative path would resolve against the "
                        "current directory)";
        return out;
    }
    out.path = value;
    return out;
}

std::string absolutePathFromEnvironment(const char* name)
{
    const EnvironmentPath decided = decideEnvironmentPath(name, std::getenv(name), secureExecution());
    if(!decided.warning.empty())
    {
        static std::mutex mutex;
        static std::set<std::string> warned;
        std::lock_guard<std::mutex> lock(mutex);
        if(warned.insert(decided.warning).second) // once per variable and value
        {
            HIPDNN_LOG_WARN(decided.warning);
        }
    }
    return decided.path;
}

bool mayFollowSymlink(uid_t linkOwner, uid_t effectiveUser)
{
    return linkOwner == effectiveUser;
}

bool readCacheFile(const std::string& path, std::string& content, std::string& why, size_t maxBytes)
{
    content.clear();
    why.clear();
    const int fd = openNoForeignSymlink(path, why);
    if(fd < 0)
    {
        return false;
    }
    struct stat st{};
    bool ok = ::fstat(fd, &st) == 0;
    if(!ok)
    {
        why = std::string("cannot fstat: ") + std::strerror(errno);
    }
    else if(!S_ISREG(st.st_mode))
    {
        why = "not a regular file";
        ok  = false;
    }
    else if(static_cast<unsigned long long>(st.st_size) > maxBytes)
    {
        why = "larger than " + std::to_string(maxBytes) + " bytes";
        ok  = false;
    }
    char buffer[65536];
    while(ok)
    {
        const ssize_t n = ::read(fd, buffer, sizeof(buffer));
        if(n < 0 && errno == EINTR)
        {
            continue;
        }
        if(n < 0)
        {
            why = std::string("read error: ") + std::strerror(errno);
            ok  = false;
            break;
        }
        if(n == 0)
        {
            break;
        }
        if(content.size() + static_cast<size_t>(n) > maxBytes)
        {
            why = "larger than " + std::to_string(maxBytes) + " bytes";
            ok  = false;
            break;
        }
        content.append(buffer, static_cast<size_t>(n));
    }
    ::close(fd);
    if(!ok)
    {
        content.clear();
    }
    return ok;
}

bool writeCacheFileAtomically(const std::string& path, const std::string& content, mode_t mode,
                              std::string& why)
{
    std::string target = path;
    struct stat link{};
    if(::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
    {
        if(!mayFollowSymlink(link.st_uid, ::geteuid()))
        {
            why = path + " is a symbolic link owned by uid " + std::to_string(link.st_uid)
                  + ", not by this process's user; not written through";
            return false;
        }
        char resolved[PATH_MAX];
        if(::realpath(path.c_str(), resolved) == nullptr)
        {
            why = "cannot resolve the symbolic link " + path + ": " + std::strerror(errno);
            return false;
        }
        target = resolved;
    }
    static std::atomic<unsigned> counter{0};
    const std::string temp = directoryOf(target) + "/." + target.substr(target.find_last_of('/') + 1) + ".tmp."
                             + std::to_string(::getpid()) + "." + std::to_string(counter++);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if(fd < 0)
    {
        why = "cannot create " + temp + ": " + std::strerror(errno);
        return false;
    }
    bool ok       = true;
    size_t offset = 0;
    while(offset < content.size())
    {
        const ssize_t n = ::write(fd, content.data() + offset, content.size() - offset);
        if(n < 0 && errno == EINTR)
        {
            continue;
        }
        if(n <= 0)
        {
            why = "cannot write " + temp + ": " + std::strerror(errno);
            ok  = false;
            break;
        }
        offset += static_cast<size_t>(n);
    }
    if(::close(fd) != 0 && ok)
    {
        why = "cannot write " + temp + ": " + std::strerror(errno);
        ok  = false;
    }
    if(ok && ::rename(temp.c_str(), target.c_str()) != 0)
    {
        why = "cannot rename " + temp + " to " + target + ": " + std::strerror(errno);
        ok  = false;
    }
    if(!ok)
    {
        ::unlink(temp.c_str());
    }
    return ok;
}

bool makeParentDirectories(const std::string& path, std::string& why)
{
    for(size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1))
    {
        const std::string dir = path.substr(0, slash);
        if(::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        {
            why = "cannot create " + dir + ": " + std::strerror(errno);
            return false;
        }
    }
    return true;
}

CacheFileLock::CacheFileLock(const std::string& path)
    : _fd(::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600))
{
    if(_fd >= 0 && ::flock(_fd, LOCK_EX) != 0)
    {
        ::close(_fd);
        _fd = -1;
    }
}

CacheFileLock::~CacheFileLock()
{
    if(_fd >= 0)
    {
        ::flock(_fd, LOCK_UN);
        ::close(_fd);
    }
}

} // namespace hipdnn_backend
