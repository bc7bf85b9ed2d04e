// A scriptable IHipdnnBackend for frontend unit tests: records every call by name, fails a chosen
// entry point with a chosen status and last-error text, and otherwise forwards to a real backend
// (or succeeds without doing anything when there is none).
#pragma once

#include <hipdnn_frontend/detail/HipdnnBackendInterface.hpp>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hipdnn_test_sdk::mocks
{

class MockHipdnnBackend : public hipdnn_frontend::detail::IHipdnnBackend
{
public:
    explicit MockHipdnnBackend(std::shared_ptr<IHipdnnBackend> forwardTo = nullptr)
        : _next(std::move(forwardTo))
    {
    }

    /// Makes `entryPoint` (e.g. "backendFinalize") return `status` with `message` as last error;
    /// `afterCalls` successful calls are let through first.
    void failCall(const std::string& entryPoint, hipdnnStatus_t status, const std::string& message, int afterCalls = 0)
    {
        _failures[entryPoint] = {status, message, afterCalls};
    }
    const std::vector<std::string>& calls() const { return _calls; }
    size_t callCount(const std::string& entryPoint) const
    {
        size_t n = 0;
        for(const auto& c : _calls)
        {
            n += c == entryPoint ? 1 : 0;
        }
        return n;
    }
    void setVersion(const char* version) { _version = version; }

    hipdnnStatus_t create(hipdnnHandle_t* h) override
    {
        return route("create", [&] { return _next->create(h); });
    }
    hipdnnStatus_t destroy(hipdnnHandle_t h) override
    {
        return route("destroy", [&] { return _next->destroy(h); });
    }
    hipdnnStatus_t setStream(hipdnnHandle_t h, hipStream_t s) override
    {
        return route("setStream", [&] { return _next->setStream(h, s); });
    }
    hipdnnStatus_t getStream(hipdnnHandle_t h, hipStream_t* s) override
    {
        return route("getStream", [&] { return _next->getStream(h, s); });
    }
    hipdnnStatus_t backendCreateDescriptor(hipdnnBackendDescriptorType_t t, hipdnnBackendDescriptor_t* d) override
    {
        return route("backendCreateDescriptor", [&] { return _next->backendCreateDescriptor(t, d); });
    }
    hipdnnStatus_t backendDestroyDescriptor(hipdnnBackendDescriptor_t d) override
    {
        return route("backendDestroyDescriptor", [&] { return _next->backendDestroyDescriptor(d); });
    }
    hipdnnStatus_t backendExecute(hipdnnHandle_t h, hipdnnBackendDescriptor_t p, hipdnnBackendDescriptor_t v) override
    {
        return route("backendExecute", [&] { return _next->backendExecute(h, p, v); });
    }
    hipdnnStatus_t backendFinalize(hipdnnBackendDescriptor_t d) override
    {
        return route("backendFinalize", [&] { return _next->backendFinalize(d); });
    }
    hipdnnStatus_t backendGetAttribute(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t n,
                                       hipdnnBackendAttributeType_t t, int64_t r, int64_t* c, void* v) override
    {
        return route("backendGetAttribute", [&] { return _next->backendGetAttribute(d, n, t, r, c, v); });
    }
    hipdnnStatus_t backendSetAttribute(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t n,
                                       hipdnnBackendAttributeType_t t, int64_t c, const void* v) override
    {
        return route("backendSetAttribute", [&] { return _next->backendSetAttribute(d, n, t, c, v); });
    }
    hipdnnStatus_t backendCreateAndDeserializeGraphExt(hipdnnBackendDescriptor_t* d, const uint8_t* p, size_t n) override
    {
        return route("backendCreateAndDeserializeGraphExt",
                     [&] { return _next->backendCreateAndDeserializeGraphExt(d, p, n); });
    }
    const char* getErrorString(hipdnnStatus_t s) override
    {
        return _next ? _next->getErrorString(s) : "HIPDNN_STATUS_(mock)";
    }
    void getLastErrorString(char* m, size_t n) override
    {
        if(!_lastError.empty())
        {
            if(m != nullptr && n > 0)
            {
                const size_t k = std::min(n - 1, _lastError.size());
                std::memcpy(m, _lastError.data(), k);
                m[k] = '\0';
            }
            _lastError.clear();
            return;
        }
        if(_next)
        {
            _next->getLastErrorString(m, n);
        }
        else if(m != nullptr && n > 0)
        {
            m[0] = '\0';
        }
    }
    void loggingCallbackExt(hipdnnSeverity_t s, const char* m) override
    {
        _calls.emplace_back("loggingCallbackExt");
        if(_next)
        {
            _next->loggingCallbackExt(s, m);
        }
    }
    hipdnnStatus_t setEnginePluginPathsExt(size_t n, const char* const* p, hipdnnPluginLoadingMode_ext_t m) override
    {
        return route("setEnginePluginPathsExt", [&] { return _next->setEnginePluginPathsExt(n, p, m); });
    }
    hipdnnStatus_t setUserLogCallbackExt(hipdnnUserLogCallback_t cb, hipdnnSeverity_t l, hipdnnLogCallbackMode_t m,
                                         hipdnnUserLogCallbackHandle_t u) override
    {
        return route("setUserLogCallbackExt", [&] { return _next->setUserLogCallbackExt(cb, l, m, u); });
    }
    hipdnnStatus_t backendSetGlobalLogLevelExt(hipdnnSeverity_t l) override
    {
        return route("backendSetGlobalLogLevelExt", [&] { return _next->backendSetGlobalLogLevelExt(l); });
    }
    hipdnnStatus_t backendGetGlobalLogLevelExt(hipdnnSeverity_t* l) override
    {
        return route("backendGetGlobalLogLevelExt", [&] { return _next->backendGetGlobalLogLevelExt(l); });
    }
    const char* versionString() override
    {
        _calls.emplace_back("versionString");
        return _version != nullptr ? _version : (_next ? _next->versionString() : "1.0.0.0");
    }

private:
    struct Failure
    {
        hipdnnStatus_t status;
        std::string message;
        int afterCalls;
    };

    template <typename F>
    hipdnnStatus_t route(const char* name, F&& forward)
    {
        _calls.emplace_back(name);
        auto it = _failures.find(name);
        if(it != _failures.end())
        {
            if(it->second.afterCalls > 0)
            {
                --it->second.afterCalls;
            }
            else
            {
                _lastError = it->second.message;
                return it->second.status;
            }
        }
        return _next ? forward() : HIPDNN_STATUS_SUCCESS;
    }

    std::shared_ptr<IHipdnnBackend> _next;
    std::map<std::string, Failure> _failures;
    std::vector<std::string> _calls;
    std::string _lastError;
    const char* _version = nullptr;
};

} // namespace hipdnn_test_sdk::mocks
