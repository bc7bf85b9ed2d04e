// The exported C API: the only file of the shared library. Every function has the same shape:
// argument checks, then the body inside tryCatch (exceptions -> status + thread's last error).
#include "Helpers.hpp"
#include "Handle.hpp"
#include "PluginManager.hpp"
#include "descriptors/DescriptorFactory.hpp"
#include "descriptors/EngineDescriptors.hpp"

#include <hipdnn_backend/version.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

using namespace hipdnn_backend;

namespace
{
void copyString(const std::string& text, char* out, size_t* len, const char* what)
{
    throwIfNull(len, std::string(what) + " length");
    if(out == nullptr)
    {
        *len = text.size() + 1;
        return;
    }
    throwIf(*len < text.size() + 1, HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
            std::string(what) + " buffer needs " + std::to_string(text.size() + 1) + " bytes");
    std::memcpy(out, text.c_str(), text.size() + 1);
    *len = text.size() + 1;
}
// Attribute names and types may be any integer a caller passes: check them against the range of
// the enumeration before they are used as enum values (the descriptor then rejects unknown ids).
hipdnnBackendAttributeName_t checkedAttributeName(const hipdnnBackendAttributeName_t& name) // by reference: no enum load (UBSan)
{
    return checkedEnum(name, 0, 4095, HIPDNN_STATUS_BAD_PARAM, "attribute name");
}

hipdnnBackendAttributeType_t checkedAttributeType(const hipdnnBackendAttributeType_t& type)
{
    return checkedEnum(type, 0, 16383, HIPDNN_STATUS_BAD_PARAM, "attribute type");
}
} // namespace

extern "C" {

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnCreate(hipdnnHandle_t* handle)
{
    return tryCatch(__func__, [&] {
        throwIfNull(handle, "handle");
        *handle = HandleRegistry::create();
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnDestroy(hipdnnHandle_t handle)
{
    return tryCatch(__func__, [&] {
        throwIf(handle == nullptr, HIPDNN_STATUS_BAD_PARAM, "handle is null");
        HandleRegistry::destroy(handle);
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetStream(hipdnnHandle_t handle, hipStream_t streamId)
{
    return tryCatch(__func__, [&] { HandleRegistry::get(handle)->setStream(streamId); });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetStream(hipdnnHandle_t handle, hipStream_t* streamId)
{
    return tryCatch(__func__, [&] {
        auto state = HandleRegistry::get(handle);
        throwIfNull(streamId, "streamId");
        *streamId = state->stream();
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendCreateDescriptor(
    hipdnnBackendDescriptorType_t descriptorType, hipdnnBackendDescriptor_t* descriptor)
{
    return tryCatch(__func__, [&] {
        throwIfNull(descriptor, "descriptor");
        const auto type = checkedEnum(descriptorType, HIPDNN_INVALID_TYPE,
                                      HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT,
                                      HIPDNN_STATUS_NOT_SUPPORTED, "(not supported) descriptor type");
        *descriptor = DescriptorRegistry::add(createDescriptor(type));
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendDestroyDescriptor(hipdnnBackendDescriptor_t descriptor)
{
    return tryCatch(__func__, [&] {
        throwIf(descriptor == nullptr, HIPDNN_STATUS_BAD_PARAM, "descriptor is null");
        DescriptorRegistry::remove(descriptor);
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendExecute(hipdnnHandle_t handle,
                                                          hipdnnBackendDescriptor_t executionPlan,
                                                          hipdnnBackendDescriptor_t variantPack)
{
    return tryCatch(__func__, [&] {
        auto state = HandleRegistry::get(handle);
        auto plan = DescriptorRegistry::getAs<ExecutionPlanDescriptor>(
            executionPlan, HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, "executionPlan", true);
        auto pack = DescriptorRegistry::getAs<VariantPackDescriptor>(
            variantPack, HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, "variantPack", true);
        plan->execute(*state, *pack);
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendFinalize(hipdnnBackendDescriptor_t descriptor)
{
    return tryCatch(__func__, [&] { DescriptorRegistry::get(descriptor)->finalize(); });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetAttribute(hipdnnBackendDescriptor_t descriptor,
                                                               hipdnnBackendAttributeName_t attributeName,
                                                               hipdnnBackendAttributeType_t attributeType,
                                                               int64_t requestedElementCount,
                                                               int64_t* elementCount,
                                                               void* arrayOfElements)
{
    return tryCatch(__func__, [&] {
        auto desc = DescriptorRegistry::get(descriptor);
        desc->getAttribute(checkedAttributeName(attributeName), checkedAttributeType(attributeType),
                           requestedElementCount, elementCount, arrayOfElements);
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendSetAttribute(hipdnnBackendDescriptor_t descriptor,
                                                               hipdnnBackendAttributeName_t attributeName,
                                                               hipdnnBackendAttributeType_t attributeType,
                                                               int64_t elementCount,
                                                               const void* arrayOfElements)
{
    return tryCatch(__func__, [&] {
        auto desc = DescriptorRegistry::get(descriptor);
        desc->setAttribute(checkedAttributeName(attributeName), checkedAttributeType(attributeType),
                           elementCount, arrayOfElements);
    });
}

HIPDNN_BACKEND_EXPORT const char* hipdnnGetErrorString(hipdnnStatus_t status)
{
    const long long raw = rawEnum(status);
    if(raw < HIPDNN_STATUS_SUCCESS || raw > HIPDNN_STATUS_PLUGIN_ERROR)
    {
        return "HIPDNN_STATUS_UNKNOWN";
    }
    switch(static_cast<hipdnnStatus_t>(raw))
    {
    case HIPDNN_STATUS_SUCCESS: return "HIPDNN_STATUS_SUCCESS";
    case HIPDNN_STATUS_NOT_INITIALIZED: return "HIPDNN_STATUS_NOT_INITIALIZED";
    case HIPDNN_STATUS_BAD_PARAM: return "HIPDNN_STATUS_BAD_PARAM";
    case HIPDNN_STATUS_BAD_PARAM_NULL_POINTER: return "HIPDNN_STATUS_BAD_PARAM_NULL_POINTER";
    case HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED: return "HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED";
    case HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND: return "HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND";
    case HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT: return "HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT";
    case HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH: return "HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH";
    case HIPDNN_STATUS_NOT_SUPPORTED: return "HIPDNN_STATUS_NOT_SUPPORTED";
    case HIPDNN_STATUS_INTERNAL_ERROR: return "HIPDNN_STATUS_INTERNAL_ERROR";
    case HIPDNN_STATUS_ALLOC_FAILED: return "HIPDNN_STATUS_ALLOC_FAILED";
    case HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED: return "HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED";
    case HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED: return "HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED";
    case HIPDNN_STATUS_EXECUTION_FAILED: return "HIPDNN_STATUS_EXECUTION_FAILED";
    case HIPDNN_STATUS_PLUGIN_ERROR: return "HIPDNN_STATUS_PLUGIN_ERROR";
    }
    return "HIPDNN_STATUS_UNKNOWN";
}

HIPDNN_BACKEND_EXPORT void hipdnnGetLastErrorString(char* message, size_t maxSize)
{
    LastErrorManager::copyLastError(message, maxSize, true);
}

HIPDNN_BACKEND_EXPORT void hipdnnPeekLastErrorString_ext(char* message, size_t maxSize)
{
    LastErrorManager::copyLastError(message, maxSize, false);
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendCreateAndDeserializeGraph_ext(
    hipdnnBackendDescriptor_t* descriptor, const uint8_t* serializedGraph, size_t graphByteSize)
{
    return tryCatch(__func__, [&] {
        throwIfNull(descriptor, "descriptor");
        throwIfNull(serializedGraph, "serializedGraph");
        throwIf(graphByteSize == 0, HIPDNN_STATUS_BAD_PARAM, "graphByteSize is 0");
        auto graph = std::make_shared<OperationGraphDescriptor>();
        graph->loadSerialized(serializedGraph, graphByteSize);
        *descriptor = DescriptorRegistry::add(graph);
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetSerializedBinaryGraph_ext(
    hipdnnBackendDescriptor_t descriptor, size_t requestedSize, size_t* graphByteSize, uint8_t* serializedGraph)
{
    return tryCatch(__func__, [&] {
        auto graph = DescriptorRegistry::getAs<OperationGraphDescriptor>(
            descriptor, HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, "descriptor", false);
        throwIf(!graph->isFinalized(), HIPDNN_STATUS_NOT_INITIALIZED, "the operation graph is not finalized");
        throwIfNull(graphByteSize, "graphByteSize");
        const auto& bytes = graph->serialized();
        *graphByteSize = bytes.size();
        if(serializedGraph != nullptr)
        {
            throwIf(requestedSize < bytes.size(), HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                    "the graph needs " + std::to_string(bytes.size()) + " bytes");
            std::memcpy(serializedGraph, bytes.data(), bytes.size());
        }
    });
}

HIPDNN_BACKEND_EXPORT void hipdnnLoggingCallback_ext(hipdnnSeverity_t severity, const char* msg)
{
    try
    {
        const long long raw = rawEnum(severity);
        if(msg != nullptr && raw >= HIPDNN_SEV_INFO && raw < HIPDNN_SEV_OFF)
        {
            BackendLogger::instance().log(static_cast<hipdnnSeverity_t>(raw), msg);
        }
    }
    catch(...)
    {
        // A log sink never throws into its caller; a failed log line is dropped.
    }
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetEnginePluginPaths_ext(
    size_t numPaths, const char* const* pluginPaths, hipdnnPluginLoadingMode_ext_t loadingMode)
{
    return tryCatch(__func__, [&] {
        throwIf(numPaths > 0 && pluginPaths == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                "pluginPaths is null while numPaths > 0");
        const auto mode = checkedEnum(loadingMode, HIPDNN_PLUGIN_LOADING_ADDITIVE, HIPDNN_PLUGIN_LOADING_ABSOLUTE,
                                      HIPDNN_STATUS_BAD_PARAM, "loading mode");
        std::vector<std::string> paths;
        for(size_t i = 0; i < numPaths; ++i)
        {
            throwIf(pluginPaths[i] == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                    "pluginPaths[" + std::to_string(i) + "] is null");
            paths.emplace_back(pluginPaths[i]);
        }
        PluginManager::instance().setEnginePluginPaths(std::move(paths), mode);
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetPluginUnloadMode_ext(hipdnnPluginUnloadingMode_ext_t unloadingMode)
{
    return tryCatch(__func__, [&] {
        PluginManager::instance().setUnloadMode(checkedEnum(unloadingMode, HIPDNN_PLUGIN_UNLOAD_LAZY,
                                                            HIPDNN_PLUGIN_UNLOAD_EAGER, HIPDNN_STATUS_BAD_PARAM,
                                                            "unloading mode"));
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetLoadedEnginePluginPaths_ext(hipdnnHandle_t handle,
                                                                          size_t* numPluginPaths,
                                                                          char** pluginPaths,
                                                                          size_t* maxStringLen)
{
    return tryCatch(__func__, [&] {
        auto state = HandleRegistry::get(handle);
        throwIfNull(numPluginPaths, "numPluginPaths");
        throwIfNull(maxStringLen, "maxStringLen");
        std::vector<std::string> paths;
        size_t longest = 1;
        for(const auto& plugin : state->plugins())
        {
            // The answer lists loaded files: a plugin the manifest described is loaded now (lazy
            // loading stays invisible here); one that fails to load is left out, as an eager
            // load would have rejected it (the reason was logged at WARN).
            try
            {
                plugin->library().fn();
            }
            catch(const HipdnnException&)
            {
                continue;
            }
            paths.push_back(plugin->library().path());
            longest = std::max(longest, paths.back().size() + 1);
        }
        if(pluginPaths == nullptr)
        {
            *numPluginPaths = paths.size();
            *maxStringLen = longest;
            return;
        }
        throwIf(*numPluginPaths < paths.size(), HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                "room for " + std::to_string(*numPluginPaths) + " paths, " + std::to_string(paths.size())
                    + " loaded");
        throwIf(*maxStringLen < longest, HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                "path buffers need " + std::to_string(longest) + " bytes");
        for(size_t i = 0; i < paths.size(); ++i)
        {
            throwIfNull(pluginPaths[i], "pluginPaths[" + std::to_string(i) + "]");
            std::memcpy(pluginPaths[i], paths[i].c_str(), paths[i].size() + 1);
        }
        *numPluginPaths = paths.size();
        *maxStringLen = longest;
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetUserLogCallback_ext(hipdnnUserLogCallback_t callback,
                                                                  hipdnnSeverity_t minLevel,
                                                                  hipdnnLogCallbackMode_t mode,
                                                                  hipdnnUserLogCallbackHandle_t userHandle)
{
    return tryCatch(__func__, [&] {
        BackendLogger::instance().setUserCallback(
            callback, checkedEnum(minLevel, HIPDNN_SEV_INFO, HIPDNN_SEV_OFF, HIPDNN_STATUS_BAD_PARAM, "log level"),
            checkedEnum(mode, HIPDNN_LOG_CALLBACK_SYNC, HIPDNN_LOG_CALLBACK_ASYNC, HIPDNN_STATUS_BAD_PARAM,
                        "callback mode"),
            userHandle);
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendSetGlobalLogLevel_ext(hipdnnSeverity_t level)
{
    return tryCatch(__func__, [&] {
        BackendLogger::instance().setLevel(
            checkedEnum(level, HIPDNN_SEV_INFO, HIPDNN_SEV_OFF, HIPDNN_STATUS_BAD_PARAM, "log level"));
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetGlobalLogLevel_ext(hipdnnSeverity_t* level)
{
    return tryCatch(__func__, [&] {
        throwIfNull(level, "level");
        *level = BackendLogger::instance().level();
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetEngineCount_ext(hipdnnHandle_t handle, size_t* numEngines)
{
    return tryCatch(__func__, [&] {
        auto state = HandleRegistry::get(handle);
        throwIfNull(numEngines, "numEngines");
        *numEngines = state->engines().size();
    });
}

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetEngineInfo_ext(hipdnnHandle_t handle,
                                                             size_t engineIndex,
                                                             int64_t* engineId,
                                                             char* engineName,
                                                             size_t* engineNameLen,
                                                             char* pluginName,
                                                             size_t* pluginNameLen,
                                                             char* version,
                                                             size_t* versionLen,
                                                             char* type,
                                                             size_t* typeLen)
{
    return tryCatch(__func__, [&] {
        auto state = HandleRegistry::get(handle);
        std::vector<const EngineEntry*> sorted;
        for(const auto& e : state->engines())
        {
            sorted.push_back(&e);
        }
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const EngineEntry* a, const EngineEntry* b) { return a->name < b->name; });
        throwIf(engineIndex >= sorted.size(), HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                "engine index " + std::to_string(engineIndex) + " is out of range (" +
                    std::to_string(sorted.size()) + " engines)");
        const EngineEntry& e = *sorted[engineIndex];
        if(engineId != nullptr)
        {
            *engineId = e.id;
        }
        const bool query = engineName == nullptr || pluginName == nullptr || version == nullptr || type == nullptr;
        const std::string texts[4] = {e.name, e.plugin->library().name(), e.plugin->library().version(), "ENGINE"};
        char* outs[4] = {engineName, pluginName, version, type};
        size_t* lens[4] = {engineNameLen, pluginNameLen, versionLen, typeLen};
        const char* whats[4] = {"engineName", "pluginName", "version", "type"};
        for(int i = 0; i < 4; ++i)
        {
            copyString(texts[i], query ? nullptr : outs[i], lens[i], whats[i]);
        }
    });
}

HIPDNN_BACKEND_DEPRECATED_EXPORT hipdnnStatus_t hipdnnGetVersion_ext(const char** version)
{
    return tryCatch(__func__, [&] {
        throwIfNull(version, "version");
        *version = HIPDNN_BACKEND_VERSION_STRING;
    });
}

HIPDNN_BACKEND_EXPORT const char* hipdnnVersionString_ext(void)
{
    return HIPDNN_BACKEND_VERSION_STRING;
}

} // extern "C"
