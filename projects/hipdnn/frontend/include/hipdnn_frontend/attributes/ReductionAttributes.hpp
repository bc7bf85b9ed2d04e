// Attributes of a reduction node (Graph::reduction): the mode. The axes follow from the output
// shape: every dimension where the output is 1 and the input is not is reduced (the output keeps
// the input's rank).
#pragma once

#include <hipdnn_frontend/Types.hpp>

#include <optional>
#include <string>

namespace hipdnn_frontend::graph
{

class ReductionAttributes
{
public:
    ReductionAttributes& set_name(const std::string& name) { _name = name; return *this; }
    ReductionAttributes& set_compute_data_type(DataType type) { _computeType = type; return *this; }
    ReductionAttributes& set_mode(ReductionMode mode) { _mode = mode; return *this; }
    ReductionAttributes& set_is_deterministic(bool deterministic) { _deterministic = deterministic; return *this; }

    const std::string& get_name() const { return _name; }
    DataType get_compute_data_type() const { return _computeType; }
    std::optional<ReductionMode> get_mode() const { return _mode; }
    bool get_is_deterministic() const { return _deterministic; }

private:
    std::string _name;
    DataType _computeType = DataType::NOT_SET;
    std::optional<ReductionMode> _mode;
    bool _deterministic = false;
};

typedef ReductionAttributes Reduction_attributes; // NOLINT(readability-identifier-naming)

} // namespace hipdnn_frontend::graph
