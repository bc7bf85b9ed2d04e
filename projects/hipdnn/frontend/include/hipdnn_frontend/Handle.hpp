// Handle helpers: an owning handle pointer created through the frontend's backend seam.
#pragma once

#include <hipdnn_frontend/Graph.hpp>

#include <memory>
#include <utility>

namespace hipdnn_frontend
{

struct HipdnnHandleDeleter
{
    void operator()(hipdnnHandle_t* handle) const
    {
        if(handle != nullptr)
        {
            if(*handle != nullptr)
            {
                (void)detail::hipdnnBackend()->destroy(*handle);
            }
            delete handle;
        }
    }
};

using HipdnnHandlePtr = std::unique_ptr<hipdnnHandle_t, HipdnnHandleDeleter>;

inline std::pair<HipdnnHandlePtr, Error> createHipdnnHandle(hipStream_t stream = nullptr)
{
    HipdnnHandlePtr handle(new hipdnnHandle_t(nullptr));
    const hipdnnStatus_t st = detail::hipdnnBackend()->create(handle.get());
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        *handle = nullptr;
        return {nullptr, detail::backendError(st, "hipdnnCreate")};
    }
    if(stream != nullptr)
    {
        const hipdnnStatus_t s = detail::hipdnnBackend()->setStream(*handle, stream);
        if(s != HIPDNN_STATUS_SUCCESS)
        {
            return {nullptr, detail::backendError(s, "hipdnnSetStream")};
        }
    }
    return {std::move(handle), Error()};
}

inline Error setHipdnnHandleStream(const HipdnnHandlePtr& handle, hipStream_t stream)
{
    HIPDNN_RETURN_IF_TRUE(handle == nullptr || *handle == nullptr, ErrorCode::INVALID_VALUE, "handle is null");
    const hipdnnStatus_t st = detail::hipdnnBackend()->setStream(*handle, stream);
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        return detail::backendError(st, "hipdnnSetStream");
    }
    return {};
}

inline std::pair<HipdnnHandlePtr, Error> create_hipdnn_handle(hipStream_t stream = nullptr)
{
    return createHipdnnHandle(stream);
}

} // namespace hipdnn_frontend
