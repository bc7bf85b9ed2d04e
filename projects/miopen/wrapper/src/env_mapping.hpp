// MIOpen's environment variables as they bear on forwarded calls (RFC Phase 3). Each variable
// frameworks and users set in production is either mapped onto hipDNN, honoured by keeping the
// affected family on MIOpen Private, or documented as having no effect on forwarded calls; the
// audit table and the user-facing list are in docs/environment-mapping.md. Read once per process
// with the rest of the wrapper's configuration (routing.hpp, config()).
#pragma once

#include "routing.hpp"

#include <string>

namespace miopen {
namespace wrapper {

// Fills Config's MIOpen-variable fields and appends one-time warnings (only when forwarding is
// enabled: with it disabled every call runs on Private, which honours them all):
//  - MIOPEN_ENABLE_LOGGING, MIOPEN_ENABLE_LOGGING_CMD (MIOpen's boolean spelling) and whether
//    HIPDNN_LOG_LEVEL is set;
//  - the variable that keeps the convolution family on Private, in this order: an algorithm
//    switch MIOPEN_DEBUG_CONV_{GEMM,DIRECT,WINOGRAD,FFT,IMPLICIT_GEMM} set to a false boolean,
//    MIOPEN_DEBUG_FIND_ONLY_SOLVER set, MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC set to a true
//    boolean (hipDNN's engines have no notion of MIOpen's solvers, so only Private honours them);
//  - MIOPEN_DEBUG_CONV_CPU_ISA (MIOpen's solvers only; DNNL_ENGINE follows oneDNN's own
//    DNNL_MAX_CPU_ISA) and MIOPEN_ENABLE_LOGGING (forwarded calls log as hipDNN messages, not as
//    MIOpen argument blocks): a warning each; so do MIOPEN_DEBUG_* variables nothing here reads
//    (upstream's switches of GPU solvers: no effect on either route), in one line.
void readMiopenVariables(Config& c);

// The hipDNN severity (hipdnnSeverity_t: 0 INFO, 1 WARN, 2 ERROR, 3 FATAL) MIOpen's logging asks
// for, or -1 to leave hipDNN as it is configured (HIPDNN_LOG_LEVEL set, or MIOpen logging off):
// MIOPEN_LOG_LEVEL 7 (Trace) or MIOPEN_ENABLE_LOGGING -> INFO (hipDNN's INFO traces every API
// call); 4..6 -> WARN; 3 -> ERROR; 2 -> FATAL; 0 (default, silent) and 1 (quiet) -> -1.
int hipdnnSeverityFor(const Config& c) noexcept;

// A hipDNN log message ("[hipDNN][<SEV>] <text>") as MIOpen prints its own log lines:
// "MIOpen(HIP): <Level> [hipDNN] <text>" (Level: Info, Warning, Error, Fatal).
std::string miopenLineForHipdnn(int severity, const char* message);

} // namespace wrapper
} // namespace miopen
