#include <miopen/handle.hpp>

#include <cstdlib>
#include <string>

namespace miopen {

Allocation& Allocation::operator=(Allocation&& o) noexcept
{
    if(this != &o)
    {
        if(_handle != nullptr && _ptr != nullptr)
            _handle->deallocate(_ptr);
        _handle   = o._handle;
        _ptr      = o._ptr;
        _bytes    = o._bytes;
        o._handle = nullptr;
        o._ptr    = nullptr;
        o._bytes  = 0;
    }
    return *this;
}

Allocation::~Allocation()
{
    if(_handle != nullptr && _ptr != nullptr)
        _handle->deallocate(_ptr);
}

void Handle::setAllocator(miopenAllocatorFunction alloc, miopenDeallocatorFunction dealloc, void* ctx)
{
    if(alloc != nullptr && dealloc == nullptr)
        fail(miopenStatusBadParm, "an allocator needs a deallocator");
    _allocator        = alloc;
    _deallocator      = alloc != nullptr ? dealloc : nullptr;
    _allocatorContext = ctx;
}

Allocation Handle::allocate(std::size_t bytes) const
{
    if(bytes == 0)
        return {};
    void* p = nullptr;
    if(_allocator != nullptr)
        p = _allocator(_allocatorContext, bytes);
    else
    {
        // 64-byte aligned, like device allocations; rounded up as aligned_alloc requires.
        const std::size_t rounded = (bytes + 63) / 64 * 64;
        p                         = rounded >= bytes ? std::aligned_alloc(64, rounded) : nullptr;
    }
    if(p == nullptr)
        fail(miopenStatusAllocFailed, "allocation of " + std::to_string(bytes) + " bytes failed");
    return Allocation(this, p, bytes);
}

void Handle::deallocate(void* p) const noexcept
{
    if(p == nullptr)
        return;
    if(_allocator != nullptr)
        _deallocator(_allocatorContext, p);
    else
        std::free(p);
}

} // namespace miopen
