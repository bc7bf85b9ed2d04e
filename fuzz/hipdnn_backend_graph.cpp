// Fuzz target: graph deserialization in the hipDNN backend (libhipdnn_backend.so, through its C
// API). The input is a serialized FlatBuffer Graph: hipdnnBackendCreateAndDeserializeGraph_ext,
// then (when it is accepted) the handle is set and the OPERATIONGRAPH finalized, an ENGINEHEUR
// descriptor in FALLBACK mode is finalized on it and its results are counted and read, and the
// serialized graph is read back. The backend loads the engine plugins of its build tree
// (lib/hipdnn_plugins/engines), so the heuristics query also hands the graph to every plugin's
// applicability check. Any status is fine; a crash, a sanitizer report or a leak is not, and
// neither is an accepted graph that does not read back as the bytes given.
#include "common/FuzzInput.hpp"

#include <hipdnn_backend.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace {

hipdnnHandle_t g_handle = nullptr;

// Destroys a backend descriptor at scope exit.
struct Descriptor
{
    hipdnnBackendDescriptor_t d = nullptr;
    ~Descriptor()
    {
        if(d != nullptr)
            hipdnnBackendDestroyDescriptor(d);
    }
};

} // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/)
{
    // The static engine order: no measured ranking (it would time engines on scratch buffers
    // and write a ranking file) for inputs that are mostly rejected anyway.
    setenv("HIPDNN_ENGINE_RANKING", "static", 1);
    setenv("HIPDNN_ENGINE_RANKING_DB", "none", 1);
    PROJECT_FUZZ_CHECK(hipdnnCreate(&g_handle) == HIPDNN_STATUS_SUCCESS, "hipdnnCreate");
    // Destroyed at exit before the backend's plugin manager (constructed by hipdnnCreate, so
    // destroyed after this handler): the plugins free their engine handles before they are
    // unloaded, or LeakSanitizer would find their state orphaned by the dlclose.
    std::atexit([] { hipdnnDestroy(g_handle); });
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Descriptor graph;
    if(hipdnnBackendCreateAndDeserializeGraph_ext(&graph.d, data, size) != HIPDNN_STATUS_SUCCESS)
    {
        PROJECT_FUZZ_CHECK(graph.d == nullptr, "a rejected graph leaves no descriptor");
        return 0;
    }
    PROJECT_FUZZ_CHECK(graph.d != nullptr, "an accepted graph gives a descriptor");
    if(hipdnnBackendSetAttribute(graph.d, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &g_handle) !=
           HIPDNN_STATUS_SUCCESS ||
       hipdnnBackendFinalize(graph.d) != HIPDNN_STATUS_SUCCESS)
        return 0;

    size_t readBack = 0;
    if(hipdnnBackendGetSerializedBinaryGraph_ext(graph.d, 0, &readBack, nullptr) == HIPDNN_STATUS_SUCCESS)
    {
        PROJECT_FUZZ_CHECK(readBack == size, "a finalized graph reads back with its size");
        std::vector<uint8_t> bytes(readBack);
        PROJECT_FUZZ_CHECK(hipdnnBackendGetSerializedBinaryGraph_ext(graph.d, bytes.size(), &readBack, bytes.data()) ==
                                   HIPDNN_STATUS_SUCCESS &&
                               std::equal(bytes.begin(), bytes.end(), data),
                           "a finalized graph reads back as the bytes given");
    }

    Descriptor heur;
    if(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur.d) != HIPDNN_STATUS_SUCCESS)
        return 0;
    const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    if(hipdnnBackendSetAttribute(heur.d, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                 &graph.d) != HIPDNN_STATUS_SUCCESS ||
       hipdnnBackendSetAttribute(heur.d, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode) !=
           HIPDNN_STATUS_SUCCESS ||
       hipdnnBackendFinalize(heur.d) != HIPDNN_STATUS_SUCCESS)
        return 0;
    int64_t count = -1;
    if(hipdnnBackendGetAttribute(heur.d, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count,
                                 nullptr) != HIPDNN_STATUS_SUCCESS)
        return 0;
    PROJECT_FUZZ_CHECK(count >= 0 && count < 64, "an engine count");
    std::vector<Descriptor> configs(static_cast<size_t>(count));
    std::vector<hipdnnBackendDescriptor_t> raw;
    for(auto& c : configs)
    {
        PROJECT_FUZZ_CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &c.d) ==
                               HIPDNN_STATUS_SUCCESS,
                           "an engine config descriptor");
        raw.push_back(c.d);
    }
    if(count > 0)
    {
        int64_t got = 0;
        PROJECT_FUZZ_CHECK(hipdnnBackendGetAttribute(heur.d, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                                     HIPDNN_TYPE_BACKEND_DESCRIPTOR, count, &got, raw.data()) ==
                                   HIPDNN_STATUS_SUCCESS &&
                               got == count,
                           "the counted heuristic results read");
    }
    return 0;
}
