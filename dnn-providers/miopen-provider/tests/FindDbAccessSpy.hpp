// Who touches MIOpen's find-db: the test executable defines open/openat/stat/... itself (exported,
// so they interpose on the C library's for every library of the process, as an LD_PRELOAD shim
// would) and, while armed, records each call on a path inside one directory together with the
// library that asked for it (from the call stack: the MIOpen provider plugin, MIOpen Public /
// the wrapper, or something else). Libraries of the process call these names through the PLT;
// libMIOpen_private.so imports open and stat (nm -D). A failed open of a missing file is
// recorded too, which a file-system watch (inotify) cannot see.
#pragma once

#include <string>
#include <vector>

namespace find_db_spy
{

enum class Caller
{
    Provider, // a frame of libhipdnn_miopen_provider_plugin.so is on the stack
    Wrapper,  // else a frame of libMIOpen.so (MIOpen Public, the forwarding wrapper)
    Other,
};

const char* callerName(Caller c);

struct Access
{
    std::string call; // "open", "stat", ...
    std::string path;
    int result = 0;   // the call's return value (a descriptor, 0, or -1)
    int error = 0;    // errno when it failed
    Caller caller = Caller::Other;
    std::string via;  // the innermost miopen*_impl entry point on the stack, when there is one
};

/// Loads what backtrace() needs (it may dlopen libgcc_s on its first use): call before arm().
void warmUp();

/// Starts recording calls on paths under `dir` (the directory itself excluded).
void arm(const std::string& dir);

/// Stops recording; returns what was recorded since arm().
std::vector<Access> disarm();

std::string describe(const Access& a);

} // namespace find_db_spy
