// Attributes of batchnorm (training), batchnorm_inference and batchnorm_backward. Epsilon and
// momentum are tensors (usually pass-by-value scalars: TensorAttributes().set_value(1e-5f)).
#pragma once

#include <hipdnn_frontend/attributes/TensorAttributes.hpp>

#include <memory>
#include <string>

namespace hipdnn_frontend::graph
{

class BatchnormAttributes
{
public:
    BatchnormAttributes& set_name(const std::string& name) { _name = name; return *this; }
    BatchnormAttributes& set_compute_data_type(DataType type) { _computeType = type; return *this; }
    BatchnormAttributes& set_epsilon(std::shared_ptr<TensorAttributes> epsilon) { _epsilon = std::move(epsilon); return *this; }
    /// Enables running statistics: next = (1 - momentum) * prev + momentum * batch.
    BatchnormAttributes& set_previous_running_stats(std::shared_ptr<TensorAttributes> mean,
                                                    std::shared_ptr<TensorAttributes> variance,
                                                    std::shared_ptr<TensorAttributes> momentum)
    {
        _prevMean = std::move(mean);
        _prevVariance = std::move(variance);
        _momentum = std::move(momentum);
        return *this;
    }

    const std::string& get_name() const { return _name; }
    DataType get_compute_data_type() const { return _computeType; }
    const std::shared_ptr<TensorAttributes>& get_epsilon() const { return _epsilon; }
    const std::shared_ptr<TensorAttributes>& get_prev_running_mean() const { return _prevMean; }
    const std::shared_ptr<TensorAttributes>& get_prev_running_variance() const { return _prevVariance; }
    const std::shared_ptr<TensorAttributes>& get_momentum() const { return _momentum; }

private:
    std::string _name;
    DataType _computeType = DataType::NOT_SET;
    std::shared_ptr<TensorAttributes> _epsilon;
    std::shared_ptr<TensorAttributes> _prevMean;
    std::shared_ptr<TensorAttributes> _prevVariance;
    std::shared_ptr<TensorAttributes> _momentum;
};

class BatchnormInferenceAttributes
{
public:
    BatchnormInferenceAttributes& set_name(const std::string& name) { _name = name; return *this; }
    BatchnormInferenceAttributes& set_compute_data_type(DataType type) { _computeType = type; return *this; }
    /// Epsilon of batchnorm_inference_variance_ext (ignored by batchnorm_inference).
    BatchnormInferenceAttributes& set_epsilon(std::shared_ptr<TensorAttributes> epsilon) { _epsilon = std::move(epsilon); return *this; }
    const std::string& get_name() const { return _name; }
    DataType get_compute_data_type() const { return _computeType; }
    const std::shared_ptr<TensorAttributes>& get_epsilon() const { return _epsilon; }

private:
    std::string _name;
    DataType _computeType = DataType::NOT_SET;
    std::shared_ptr<TensorAttributes> _epsilon;
};

class BatchnormBackwardAttributes
{
public:
    BatchnormBackwardAttributes& set_name(const std::string& name) { _name = name; return *this; }
    BatchnormBackwardAttributes& set_compute_data_type(DataType type) { _computeType = type; return *this; }
    BatchnormBackwardAttributes& set_saved_mean_and_inv_variance(std::shared_ptr<TensorAttributes> mean,
                                                                 std::shared_ptr<TensorAttributes> invVariance)
    {
        _mean = std::move(mean);
        _invVariance = std::move(invVariance);
        return *this;
    }
    const std::string& get_name() const { return _name; }
    DataType get_compute_data_type() const { return _computeType; }
    const std::shared_ptr<TensorAttributes>& get_mean() const { return _mean; }
    const std::shared_ptr<TensorAttributes>& get_inv_variance() const { return _invVariance; }

private:
    std::string _name;
    DataType _computeType = DataType::NOT_SET;
    std::shared_ptr<TensorAttributes> _mean;
    std::shared_ptr<TensorAttributes> _invVariance;
};

} // namespace hipdnn_frontend::graph
