#pragma once

#include "BackendDescriptor.hpp"

namespace hipdnn_backend
{

/// A new, empty descriptor of the given kind; NOT_SUPPORTED for kinds this backend lacks.
std::shared_ptr<BackendDescriptor> createDescriptor(hipdnnBackendDescriptorType_t type);

} // namespace hipdnn_backend
