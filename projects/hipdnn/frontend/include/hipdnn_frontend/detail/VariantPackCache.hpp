// A per-thread cache of finalized backend variant packs, so that executing a plan again on the
// same buffers creates, fills and finalizes no descriptor (Graph::execute).
//
// Why reuse is safe: a finalized VARIANT_PACK descriptor is read-only, names no plan and holds
// nothing but (uid, address) pairs and a workspace address. Two packs with the same backend,
// uids, addresses and workspace are interchangeable, so a cached pack is reused only when all of
// these are equal, and never changed once finalized. The cache is thread_local: nothing in it
// is shared between threads, so plans that run concurrently on several threads each use their
// own packs. A miss creates a fresh pack (the upstream sequence: create, set the three
// attributes, finalize) and keeps it in place of the least recently used one; evicted packs, and
// the remaining ones at thread exit, are destroyed through the backend that created them.
//
// Set HIPDNN_FRONTEND_VARIANT_PACK_CACHE=0 to create and destroy a pack on every execution.
#pragma once

#include <hipdnn_frontend/detail/BackendWrapper.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace hipdnn_frontend::detail
{

class VariantPackCache
{
public:
    static constexpr size_t kEntries = 16;   // distinct (plan, buffers) sets per thread
    static constexpr size_t kMaxTensors = 16; // larger packs are not cached

    VariantPackCache() = default;
    VariantPackCache(const VariantPackCache&) = delete;
    VariantPackCache& operator=(const VariantPackCache&) = delete;
    ~VariantPackCache()
    {
        for(auto& e : _entries)
        {
            e.release();
        }
    }

    /// This thread's cache.
    static VariantPackCache& forThisThread()
    {
        thread_local VariantPackCache cache;
        return cache;
    }

    /// False when HIPDNN_FRONTEND_VARIANT_PACK_CACHE is "0" (read once per process).
    static bool enabled()
    {
        static const bool on = [] {
            const char* v = std::getenv("HIPDNN_FRONTEND_VARIANT_PACK_CACHE");
            return v == nullptr || std::strcmp(v, "0") != 0;
        }();
        return on;
    }

    /// The cached pack with exactly these contents, or nullptr.
    hipdnnBackendDescriptor_t find(const IHipdnnBackend* backend, const int64_t* uids, void* const* pointers,
                                   size_t count, void* workspace)
    {
        for(size_t k = 0; k < kEntries; ++k)
        {
            // Most recently used first: a layer's next call usually hits the first probe.
            const size_t i = (_last + kEntries - k) % kEntries;
            Entry& e = _entries[i];
            if(e.descriptor != nullptr && e.backend.get() == backend && e.count == count && e.workspace == workspace
               && std::equal(uids, uids + count, e.uids.begin()) && std::equal(pointers, pointers + count, e.pointers.begin()))
            {
                e.lastUse = ++_clock;
                _last = i;
                return e.descriptor;
            }
        }
        return nullptr;
    }

    /// Takes ownership of a finalized pack with these contents (count <= kMaxTensors), destroying
    /// the least recently used one.
    void insert(std::shared_ptr<IHipdnnBackend> backend, hipdnnBackendDescriptor_t descriptor, const int64_t* uids,
                void* const* pointers, size_t count, void* workspace)
    {
        size_t victim = 0;
        for(size_t i = 1; i < kEntries; ++i)
        {
            if(_entries[i].lastUse < _entries[victim].lastUse)
            {
                victim = i;
            }
        }
        Entry& e = _entries[victim];
        e.release();
        e.backend = std::move(backend);
        e.descriptor = descriptor;
        e.count = count;
        e.workspace = workspace;
        std::copy(uids, uids + count, e.uids.begin());
        std::copy(pointers, pointers + count, e.pointers.begin());
        e.lastUse = ++_clock;
        _last = victim;
    }

private:
    struct Entry
    {
        std::shared_ptr<IHipdnnBackend> backend; // the creator, which also destroys it
        hipdnnBackendDescriptor_t descriptor = nullptr;
        size_t count = 0;
        void* workspace = nullptr;
        std::array<int64_t, kMaxTensors> uids{};
        std::array<void*, kMaxTensors> pointers{};
        uint64_t lastUse = 0;

        void release()
        {
            if(descriptor != nullptr && backend != nullptr)
            {
                (void)backend->backendDestroyDescriptor(descriptor);
            }
            descriptor = nullptr;
            backend.reset();
            lastUse = 0;
        }
    };

    std::array<Entry, kEntries> _entries{};
    size_t _last = 0;
    uint64_t _clock = 0;
};

} // namespace hipdnn_frontend::detail
