// hipDNN frontend: header-only C++ graph API over the backend C API.
#pragma once

#include <hipdnn_frontend/Error.hpp>
#include <hipdnn_frontend/Graph.hpp>
#include <hipdnn_frontend/Handle.hpp>
#include <hipdnn_frontend/Types.hpp>
#include <hipdnn_frontend/version.h>
