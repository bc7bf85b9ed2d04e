// The backend's rules for what it trusts (docs/security.md): environment variables only outside
// secure execution and only as absolute paths; cache files (engine rankings, the plugin manifest)
// read and written without following a symbolic link another user owns, written atomically with a
// fixed mode, their content parsed as untrusted text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <sys/types.h>

namespace hipdnn_backend
{

/// True under secure execution (getauxval(AT_SECURE): set-user-ID, set-group-ID or
/// capability-raising programs), or as a test set it with setSecureExecutionForTesting.
bool secureExecution();

/// Tests: 1 simulates secure execution, 0 forces it off, -1 restores getauxval(AT_SECURE).
void setSecureExecutionForTesting(int value);

/// The variable's value, or nullptr when it is unset or secure execution is on.
const char* environmentValue(const char* name);

/// What an environment path variable yields.
struct EnvironmentPath
{
    std::string path;    ///< the absolute path; empty when unusable or unset
    std::string warning; ///< why the value was ignored (relative, or secure execution); empty if not
};

/// The pure decision: `value` (nullptr = unset) of variable `name` under secure execution or not.
/// Only an absolute path is used; a relative one (it would resolve against the current
/// directory) and any value under secure execution are ignored with a warning text.
EnvironmentPath decideEnvironmentPath(const char* name, const char* value, bool secure);

/// decideEnvironmentPath over the process environment; the warning is logged (WARN) once per
/// variable, value and process.
std::string absolutePathFromEnvironment(const char* name);

/// A symbolic link is followed only when the process's effective user owns it (the rule of
/// Linux's fs.protected_symlinks, applied to every cache file whatever the directory).
bool mayFollowSymlink(uid_t linkOwner, uid_t effectiveUser);

/// Reads a whole cache file into `content`. Returns false with `why` empty when the file does not
/// exist, with `why` set when it is refused or unreadable: a final symbolic link not owned by the
/// effective user, not a regular file, larger than `maxBytes`, or a read error.
bool readCacheFile(const std::string& path, std::string& content, std::string& why,
                   size_t maxBytes = size_t{64} << 20);

/// Replaces `path` with `content` atomically: a new temporary file in the same directory
/// (O_CREAT|O_EXCL|O_NOFOLLOW, `mode` less the umask), written in full, then renamed over the
/// path. When `path` is a symbolic link it is replaced through only if the effective user owns it
/// (the link's target is written); otherwise nothing is written. Returns false with `why`.
bool writeCacheFileAtomically(const std::string& path, const std::string& content, mode_t mode,
                              std::string& why);

/// mkdir -p of the directory part of `path` (new directories 0700).
bool makeParentDirectories(const std::string& path, std::string& why);

/// An flock'ed "<path>.lock" (0600, never through a symbolic link) for a read-merge-write;
/// released at destruction. Best effort: held() is false when the lock could not be taken.
class CacheFileLock
{
public:
    explicit CacheFileLock(const std::string& path);
    ~CacheFileLock();
    CacheFileLock(const CacheFileLock&) = delete;
    CacheFileLock& operator=(const CacheFileLock&) = delete;
    bool held() const { return _fd >= 0; }

private:
    int _fd = -1;
};

} // namespace hipdnn_backend
