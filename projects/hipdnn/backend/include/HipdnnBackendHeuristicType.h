#pragma once

/** Engine heuristic modes; FALLBACK orders applicable engines deterministically (see
 *  docs in hipdnn_backend.h, "Engine order"). */
typedef enum
{
    HIPDNN_HEUR_MODE_FALLBACK = 0
} hipdnnBackendHeurMode_t;
