// The interposed file calls of FindDbAccessSpy.hpp. Each one forwards to the next definition
// (dlsym(RTLD_NEXT): the C library's) and, while the spy is armed and the path lies inside the
// watched directory, records the call with its caller. The executable exports them (CMake
// ENABLE_EXPORTS), so the dynamic linker binds every library's open/stat/... to these.
#include "FindDbAccessSpy.hpp"

#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>

#define SPY_EXPORT __attribute__((visibility("default")))

namespace find_db_spy
{
namespace
{

std::atomic<bool> gArmed{false};
std::mutex gMutex; // guards gDir and gAccesses
std::string gDir;  // with a trailing '/'
std::vector<Access> gAccesses;
thread_local bool tInSpy = false; // the spy's own calls are not recorded

template <typename F>
F next(const char* name)
{
    void* f = dlsym(RTLD_NEXT, name);
    if(f == nullptr)
    {
        std::fprintf(stderr, "FindDbAccessSpy: no next definition of %s\n", name);
        std::abort();
    }
    F typed;
    static_assert(sizeof typed == sizeof f);
    std::memcpy(&typed, &f, sizeof f);
    return typed;
}

bool endsWith(const std::string& s, const char* tail)
{
    const size_t n = std::strlen(tail);
    return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

/// The path as an absolute one (relative to dirfd, or the working directory for AT_FDCWD).
std::string absolute(int dirfd, const char* path)
{
    if(path == nullptr)
    {
        return {};
    }
    if(path[0] == '/')
    {
        return path;
    }
    char base[PATH_MAX] = {};
    if(dirfd == AT_FDCWD)
    {
        if(getcwd(base, sizeof base) == nullptr)
        {
            return path;
        }
    }
    else
    {
        const std::string link = "/proc/self/fd/" + std::to_string(dirfd);
        const ssize_t n = readlink(link.c_str(), base, sizeof base - 1);
        if(n <= 0)
        {
            return path;
        }
        base[n] = '\0';
    }
    return std::string(base) + "/" + path;
}

void record(const char* call, int dirfd, const char* path, int result, int error)
{
    if(!gArmed.load(std::memory_order_acquire) || tInSpy)
    {
        return;
    }
    tInSpy = true;
    const std::string full = absolute(dirfd, path);
    bool inside = false;
    {
        std::lock_guard<std::mutex> lock(gMutex);
        inside = !gDir.empty() && full.size() > gDir.size() && full.compare(0, gDir.size(), gDir) == 0;
    }
    if(inside)
    {
        Access a;
        a.call = call;
        a.path = full;
        a.result = result;
        a.error = error;
        void* frames[128];
        const int n = backtrace(frames, 128);
        bool provider = false, wrapper = false;
        for(int i = 0; i < n; ++i)
        {
            Dl_info info{};
            if(dladdr(frames[i], &info) == 0 || info.dli_fname == nullptr)
            {
                continue;
            }
            const std::string object = info.dli_fname;
            if(object.find("hipdnn_miopen_provider_plugin") != std::string::npos)
            {
                provider = true;
            }
            else if(object.find("/libMIOpen.so") != std::string::npos)
            {
                wrapper = true;
            }
            else if(a.via.empty() && object.find("libMIOpen_private.so") != std::string::npos
                    && info.dli_sname != nullptr && endsWith(info.dli_sname, "_impl"))
            {
                a.via = info.dli_sname;
            }
        }
        a.caller = provider ? Caller::Provider : wrapper ? Caller::Wrapper : Caller::Other;
        std::lock_guard<std::mutex> lock(gMutex);
        gAccesses.push_back(std::move(a));
    }
    tInSpy = false;
}

bool creates(int flags)
{
    return (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE;
}

} // namespace

const char* callerName(Caller c)
{
    switch(c)
    {
    case Caller::Provider: return "the MIOpen provider";
    case Caller::Wrapper: return "libMIOpen.so (the wrapper)";
    case Caller::Other: return "another caller";
    }
    return "?";
}

void warmUp()
{
    void* frames[4];
    (void)backtrace(frames, 4);
    Dl_info info{};
    (void)dladdr(reinterpret_cast<void*>(&warmUp), &info);
}

void arm(const std::string& dir)
{
    {
        std::lock_guard<std::mutex> lock(gMutex);
        gDir = dir.empty() || dir.back() == '/' ? dir : dir + "/";
        gAccesses.clear();
    }
    gArmed.store(true, std::memory_order_release);
}

std::vector<Access> disarm()
{
    gArmed.store(false, std::memory_order_release);
    std::lock_guard<std::mutex> lock(gMutex);
    std::vector<Access> out;
    out.swap(gAccesses);
    return out;
}

std::string describe(const Access& a)
{
    std::string s = a.call + "(" + a.path + ") = " + std::to_string(a.result);
    if(a.result < 0)
    {
        s += std::string(" (") + std::strerror(a.error) + ")";
    }
    s += std::string(" by ") + callerName(a.caller);
    if(!a.via.empty())
    {
        s += " via " + a.via;
    }
    return s;
}

} // namespace find_db_spy

// ---- the interposed calls ---------------------------------------------------------------------

using find_db_spy::creates;
using find_db_spy::next;
using find_db_spy::record;

extern "C" {

SPY_EXPORT int open(const char* path, int flags, ...)
{
    mode_t mode = 0;
    if(creates(flags))
    {
        va_list ap;
        va_start(ap, flags);
        mode = static_cast<mode_t>(va_arg(ap, unsigned int));
        va_end(ap);
    }
    static const auto real = next<int (*)(const char*, int, ...)>("open");
    const int r = real(path, flags, mode);
    const int e = errno;
    record("open", AT_FDCWD, path, r, e);
    errno = e;
    return r;
}

SPY_EXPORT int open64(const char* path, int flags, ...)
{
    mode_t mode = 0;
    if(creates(flags))
    {
        va_list ap;
        va_start(ap, flags);
        mode = static_cast<mode_t>(va_arg(ap, unsigned int));
        va_end(ap);
    }
    static const auto real = next<int (*)(const char*, int, ...)>("open64");
    const int r = real(path, flags, mode);
    const int e = errno;
    record("open64", AT_FDCWD, path, r, e);
    errno = e;
    return r;
}

SPY_EXPORT int openat(int dirfd, const char* path, int flags, ...)
{
    mode_t mode = 0;
    if(creates(flags))
    {
        va_list ap;
        va_start(ap, flags);
        mode = static_cast<mode_t>(va_arg(ap, unsigned int));
        va_end(ap);
    }
    static const auto real = next<int (*)(int, const char*, int, ...)>("openat");
    const int r = real(dirfd, path, flags, mode);
    const int e = errno;
    record("openat", dirfd, path, r, e);
    errno = e;
    return r;
}

SPY_EXPORT int openat64(int dirfd, const char* path, int flags, ...)
{
    mode_t mode = 0;
    if(creates(flags))
    {
        va_list ap;
        va_start(ap, flags);
        mode = static_cast<mode_t>(va_arg(ap, unsigned int));
        va_end(ap);
    }
    static const auto real = next<int (*)(int, const char*, int, ...)>("openat64");
    const int r = real(dirfd, path, flags, mode);
    const int e = errno;
    record("openat64", dirfd, path, r, e);
    errno = e;
    return r;
}

SPY_EXPORT FILE* fopen(const char* path, const char* mode)
{
    static const auto real = next<FILE* (*)(const char*, const char*)>("fopen");
    FILE* f = real(path, mode);
    const int e = errno;
    record("fopen", AT_FDCWD, path, f != nullptr ? 0 : -1, e);
    errno = e;
    return f;
}

SPY_EXPORT FILE* fopen64(const char* path, const char* mode)
{
    static const auto real = next<FILE* (*)(const char*, const char*)>("fopen64");
    FILE* f = real(path, mode);
    const int e = errno;
    record("fopen64", AT_FDCWD, path, f != nullptr ? 0 : -1, e);
    errno = e;
    return f;
}

SPY_EXPORT int stat(const char* path, struct stat* buf) __THROW
{
    static const auto real = next<int (*)(const char*, struct stat*)>("stat");
    const int r = real(path, buf);
    const int e = errno;
    record("stat", AT_FDCWD, path, r, e);
    errno = e;
    return r;
}

SPY_EXPORT int stat64(const char* path, struct stat64* buf) __THROW
{
    static const auto real = next<int (*)(const char*, struct stat64*)>("stat64");
    const int r = real(path, buf);
    const int e = errno;
    record("stat64", AT_FDCWD, path, r, e);
    errno = e;
    return r;
}

SPY_EXPORT int lstat(const char* path, struct stat* buf) __THROW
{
    static const auto real = next<int (*)(const char*, struct stat*)>("lstat");
    const int r = real(path, buf);
    const int e = errno;
    record("lstat", AT_FDCWD, path, r, e);
    errno = e;
    return r;
}

SPY_EXPORT int lstat64(const char* path, struct stat64* buf) __THROW
{
    static const auto real = next<int (*)(const char*, struct stat64*)>("lstat64");
    const int r = real(path, buf);
    const int e = errno;
    record("lstat64", AT_FDCWD, path, r, e);
    errno = e;
    return r;
}

SPY_EXPORT int fstatat(int dirfd, const char* path, struct stat* buf, int flags) __THROW
{
    static const auto real = next<int (*)(int, const char*, struct stat*, int)>("fstatat");
    const int r = real(dirfd, path, buf, flags);
    const int e = errno;
    record("fstatat", dirfd, path, r, e);
    errno = e;
    return r;
}

SPY_EXPORT int fstatat64(int dirfd, const char* path, struct stat64* buf, int flags) __THROW
{
    static const auto real = next<int (*)(int, const char*, struct stat64*, int)>("fstatat64");
    const int r = real(dirfd, path, buf, flags);
    const int e = errno;
    record("fstatat64", dirfd, path, r, e);
    errno = e;
    return r;
}

SPY_EXPORT int statx(int dirfd, const char* path, int flags, unsigned int mask, struct statx* buf) __THROW
{
    static const auto real = next<int (*)(int, const char*, int, unsigned int, struct statx*)>("statx");
    const int r = real(dirfd, path, flags, mask, buf);
    const int e = errno;
    record("statx", dirfd, path, r, e);
    errno = e;
    return r;
}

} // extern "C"
