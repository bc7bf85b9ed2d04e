// Run-time loading of libhipdnn_backend (hipdnn_frontend_dynamic). The library is looked up
// once per calling module; success and failure are both cached. Search order:
//   1. the directory given to setBackendLibraryPath() before first use;
//   2. HIPDNN_BACKEND_LIBRARY_PATH (an absolute directory; ignored under secure execution);
//   3. the calling module's directory, then its ../lib and ../lib64 (skipped under secure
//      execution);
//   4. the bare soname (the dynamic loader's own search).
// Every candidate tried and why it failed is reported in the error (and once on stderr, never
// through hipDNN logging, to avoid re-entering a backend that is not there).
#pragma once

#include <hipdnn_backend.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <sys/auxv.h>

namespace hipdnn_frontend::detail
{

inline constexpr const char* kBackendSoname = "libhipdnn_backend.so.1";

class DynamicBackendLibrary
{
public:
    /// The process-wide (per calling module: hidden visibility) library state.
    static DynamicBackendLibrary& instance()
    {
        static DynamicBackendLibrary library;
        return library;
    }

    /// Sets the directory searched first. Returns false once loading was attempted.
    bool setBackendLibraryPath(const std::string& directory)
    {
        std::lock_guard<std::mutex> lock(_mutex);
        if(_attempted)
        {
            return false;
        }
        _userDirectory = directory;
        return true;
    }

    /// The dlopen handle, or nullptr with error() describing every candidate.
    void* handle()
    {
        std::lock_guard<std::mutex> lock(_mutex);
        if(!_attempted)
        {
            _attempted = true;
            load();
        }
        return _handle;
    }

    const std::string& error()
    {
        handle();
        return _error;
    }

    /// Resolves a symbol of the loaded backend (nullptr when absent).
    void* symbol(const char* name)
    {
        void* h = handle();
        return h == nullptr ? nullptr : dlsym(h, name);
    }

    /// Candidate paths in search order (for diagnostics and tests).
    std::vector<std::string> candidates() const
    {
        std::vector<std::string> out;
        const bool secure = getauxval(AT_SECURE) != 0;
        if(!_userDirectory.empty())
        {
            out.push_back(_userDirectory + "/" + kBackendSoname);
        }
        const char* env = secure ? nullptr : std::getenv("HIPDNN_BACKEND_LIBRARY_PATH");
        if(env != nullptr && *env == '/')
        {
            out.push_back(std::string(env) + "/" + kBackendSoname);
        }
        if(!secure)
        {
            Dl_info info{};
            if(dladdr(reinterpret_cast<void*>(&DynamicBackendLibrary::instance), &info) != 0
               && info.dli_fname != nullptr)
            {
                // The module's own directory, as an absolute path (docs/security.md): a name
                // that cannot be resolved is skipped, never taken relative to the current
                // directory.
                char resolved[PATH_MAX];
                if(realpath(info.dli_fname, resolved) != nullptr && resolved[0] == '/')
                {
                    const std::string module(resolved);
                    const std::string dir = module.substr(0, module.find_last_of('/'));
                    out.push_back(dir + "/" + kBackendSoname);
                    out.push_back(dir + "/../lib/" + kBackendSoname);
                    out.push_back(dir + "/../lib64/" + kBackendSoname);
                }
            }
        }
        out.emplace_back(kBackendSoname);
        return out;
    }

private:
    DynamicBackendLibrary() = default;

    void load()
    {
        std::string tried;
        const char* env = std::getenv("HIPDNN_BACKEND_LIBRARY_PATH");
        if(env != nullptr && *env != '/' && *env != '\0')
        {
            tried += "\n  HIPDNN_BACKEND_LIBRARY_PATH='" + std::string(env) + "' ignored: not absolute";
        }
        for(const auto& candidate : candidates())
        {
            dlerror();
            void* h = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
            if(h != nullptr)
            {
                _handle = h;
                _path = candidate;
                return;
            }
            const char* why = dlerror();
            tried += "\n  " + candidate + ": " + (why != nullptr ? why : "unknown error");
        }
        _error = "cannot load the hipDNN backend; tried:" + tried;
        std::fprintf(stderr, "[hipDNN frontend] %s\n", _error.c_str());
    }

    std::mutex _mutex;
    bool _attempted = false;
    std::string _userDirectory;
    void* _handle = nullptr;
    std::string _path;
    std::string _error;
};

/// Sets the backend directory for run-time loading (call before any hipDNN use).
inline bool setBackendLibraryPath(const std::string& directory)
{
    return DynamicBackendLibrary::instance().setBackendLibraryPath(directory);
}

} // namespace hipdnn_frontend::detail
