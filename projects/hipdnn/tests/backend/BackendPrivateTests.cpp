// Unit tests of backend internals (linked against the static hipdnn_backend_private).
#include "PluginLibrary.hpp"
#include "PluginManager.hpp"
#include "descriptors/DescriptorFactory.hpp"
#include "descriptors/TensorDescriptor.hpp"

#include <gtest/gtest.h>

using namespace hipdnn_backend;

TEST(BackendVersionParsing, AcceptsOnlyMajorMinorPatch)
{
    SemanticVersion v;
    EXPECT_TRUE(parseSemanticVersion("1.4.0", v));
    EXPECT_EQ(v.major, 1u);
    EXPECT_EQ(v.minor, 4u);
    for(const char* bad : {"", "1", "1.2", "1.2.3.4", "a.b.c", "1..2", "1.2.x", "-1.0.0", "one.two"})
    {
        EXPECT_FALSE(parseSemanticVersion(bad, v)) << bad;
    }
}

TEST(BackendDescriptors, RegistryRejectsStaleAndForeignPointers)
{
    auto tensor = createDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
    hipdnnBackendDescriptor_t raw = DescriptorRegistry::add(tensor);
    EXPECT_EQ(DescriptorRegistry::get(raw), tensor);
    DescriptorRegistry::remove(raw);
    EXPECT_THROW(DescriptorRegistry::get(raw), HipdnnException);
    int notADescriptor = 0;
    EXPECT_THROW(DescriptorRegistry::get(reinterpret_cast<hipdnnBackendDescriptor_t>(&notADescriptor)), HipdnnException);
}

TEST(BackendDescriptors, TensorFinalizeChecksEveryRequiredAttribute)
{
    TensorDescriptor t;
    try
    {
        t.finalize();
        FAIL() << "finalize succeeded without attributes";
    }
    catch(const HipdnnException& e)
    {
        EXPECT_EQ(e.status(), HIPDNN_STATUS_BAD_PARAM);
        EXPECT_NE(std::string(e.what()).find("unique id"), std::string::npos);
    }
    const int64_t uid = 5, dims[2] = {2, 3}, strides[1] = {1};
    const hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    t.setAttribute(HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid);
    t.setAttribute(HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt);
    t.setAttribute(HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 2, dims);
    t.setAttribute(HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 1, strides);
    EXPECT_THROW(t.finalize(), HipdnnException); // 1 stride for 2 dims
    EXPECT_THROW(t.setAttribute(HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_FLOAT, 1, &uid), HipdnnException);
}

TEST(BackendPluginManager, DefaultDirectoryIsNextToTheBackend)
{
    const auto dir = PluginManager::backendDirectory();
    EXPECT_FALSE(dir.empty());
}
