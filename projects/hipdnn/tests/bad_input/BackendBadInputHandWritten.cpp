// Hand-written bad-input cases of the hipDNN backend C API, on top of the generated corpus: bad
// attribute ids, types and counts; descriptors that do not finalize (missing, inconsistent or
// overflowing attributes); graphs with cycles; corrupt serialized graphs; variant packs with
// unknown, missing or duplicate uids; workspace null when the plan needs one; buffers too small
// for the answer; out-of-range enums and indices.
#include "BackendBadInputWorld.hpp"

#include <limits>
#include <string>

namespace backend_bad_input
{
namespace
{

int st(hipdnnStatus_t s) { return static_cast<int>(s); }

// Sets an attribute, then finalizes; the first failure is the case's status.
hipdnnStatus_t setThenFinalize(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t name,
                               hipdnnBackendAttributeType_t type, int64_t count, const void* values)
{
    const hipdnnStatus_t s = hipdnnBackendSetAttribute(d, name, type, count, values);
    return s != HIPDNN_STATUS_SUCCESS ? s : hipdnnBackendFinalize(d);
}

// A tensor descriptor with uid 40 and the given dims/strides, not finalized.
hipdnnBackendDescriptor_t tensorWith(BackendWorld& w, std::vector<int64_t> dims, std::vector<int64_t> strides)
{
    auto d                    = w.make(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
    const int64_t uid         = 40;
    const hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid);
    hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt);
    hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, static_cast<int64_t>(dims.size()), dims.data());
    hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, static_cast<int64_t>(strides.size()), strides.data());
    return d;
}

// A finalized ReLU pointwise operation in -> out.
hipdnnBackendDescriptor_t relu(BackendWorld& w, hipdnnBackendDescriptor_t in, hipdnnBackendDescriptor_t out)
{
    auto op                          = w.make(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
    const hipdnnPointwiseMode_t mode = HIPDNN_POINTWISE_MODE_RELU_FWD;
    EXPECT_EQ(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &out), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendFinalize(op), HIPDNN_STATUS_SUCCESS);
    return op;
}

hipdnnStatus_t finalizeGraph(BackendWorld& w, std::vector<hipdnnBackendDescriptor_t> ops)
{
    auto g              = w.make(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    hipdnnHandle_t h    = w.handle();
    hipdnnStatus_t s    = hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                                    static_cast<int64_t>(ops.size()), ops.data());
    if(s == HIPDNN_STATUS_SUCCESS)
    {
        s = hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h);
    }
    return s != HIPDNN_STATUS_SUCCESS ? s : hipdnnBackendFinalize(g);
}

hipdnnStatus_t executeWithPack(BackendWorld& w, std::vector<int64_t> uids, bool withWorkspace = true)
{
    auto pack = w.makePack(uids, withWorkspace);
    return hipdnnBackendExecute(w.handle(), w.plan(), pack);
}

} // namespace

const std::vector<BadCase>& handWrittenCases()
{
    static const std::vector<BadCase> kCases = {
        // ---- attributes: ids, types, counts ------------------------------------------------------
        {"setAttribute.unknownAttributeId", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendSetAttribute(w.openTensor(), static_cast<hipdnnBackendAttributeName_t>(99999), HIPDNN_TYPE_INT64, 1, w.input<int64_t>({1}))); }},
        {"setAttribute.attributeOfAnotherDescriptorType", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendSetAttribute(w.openTensor(), HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, w.input<int64_t>({1}))); }},
        {"setAttribute.wrongType", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendSetAttribute(w.openTensor(), HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_FLOAT, 1, w.input<float>({1.0f}))); }},
        {"setAttribute.unknownType", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendSetAttribute(w.openTensor(), HIPDNN_ATTR_TENSOR_UNIQUE_ID, static_cast<hipdnnBackendAttributeType_t>(777), 1, w.input<int64_t>({1}))); }},
        {"setAttribute.zeroCount", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendSetAttribute(w.openTensor(), HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 0, w.input<int64_t>({1}))); }},
        {"setAttribute.negativeCount", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendSetAttribute(w.openTensor(), HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, -1, w.input<int64_t>({1}))); }},
        {"setAttribute.scalarWithCountTwo", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendSetAttribute(w.openTensor(), HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 2, w.input<int64_t>({1, 2}))); }},
        {"setAttribute.hugeCountNotRead", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendSetAttribute(w.openTensor(), HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64,
                                                 std::numeric_limits<int64_t>::max(), w.input<int64_t>({1}))); }},
        {"setAttribute.rankNine", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(setThenFinalize(w.openTensor(), HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 9,
                                       w.input<int64_t>({1, 1, 1, 1, 1, 1, 1, 1, 1}))); }},
        {"setAttribute.afterFinalize", Expect::oneOf({HIPDNN_STATUS_NOT_INITIALIZED}), [](BackendWorld& w) {
             return st(hipdnnBackendSetAttribute(w.finalizedTensor(), HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, w.input<int64_t>({5}))); }},
        {"setAttribute.descriptorOfWrongTypeAsEngineConfig", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             auto plan = w.make(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
             const hipdnnBackendDescriptor_t t = w.finalizedTensor();
             return st(setThenFinalize(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t)); }},
        {"setAttribute.notADescriptorAsGraphOp", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             auto g = w.make(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
             const hipdnnBackendDescriptor_t bogus = w.handleAsDescriptor();
             return st(setThenFinalize(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &bogus)); }},
        {"finalize.heuristicsOverGraphNeverFinalized", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED}), [](BackendWorld& w) {
             auto heur = w.make(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
             const hipdnnBackendDescriptor_t g = w.openGraph();
             const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
             EXPECT_EQ(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode), HIPDNN_STATUS_SUCCESS);
             return st(setThenFinalize(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g)); }},
        {"getAttribute.unknownAttributeId", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendGetAttribute(w.finalizedTensor(), static_cast<hipdnnBackendAttributeName_t>(99999), HIPDNN_TYPE_INT64, 1,
                                                 w.slot<int64_t>("n"), w.slot<int64_t>("v"))); }},
        {"getAttribute.wrongType", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendGetAttribute(w.finalizedTensor(), HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_DOUBLE, 4,
                                                 w.slot<int64_t>("n"), w.slot<double>("v"))); }},
        {"getAttribute.negativeRequestedCount", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendGetAttribute(w.finalizedTensor(), HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, -3,
                                                 w.slot<int64_t>("n"), w.slot<int64_t>("v"))); }},
        {"getAttribute.writesOnlyTheRequestedElements", Expect::oneOf({HIPDNN_STATUS_SUCCESS}), [](BackendWorld& w) {
             // 4 dims available, 1 requested, into a guarded one-element buffer.
             auto* one = static_cast<int64_t*>(w.add(sizeof(int64_t)).data());
             return st(hipdnnBackendGetAttribute(w.finalizedTensor(), HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 1,
                                                 w.slot<int64_t>("n"), one)); }},
        // ---- descriptors that must not finalize -------------------------------------------------
        {"tensor.missingAttributes", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             auto d = w.make(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
             return st(setThenFinalize(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, w.input<int64_t>({3}))); }},
        {"tensor.zeroDim", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendFinalize(tensorWith(w, {1, 0, 5, 5}, {0, 25, 5, 1}))); }},
        {"tensor.negativeDim", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendFinalize(tensorWith(w, {1, -2, 5, 5}, {50, 25, 5, 1}))); }},
        {"tensor.negativeStride", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendFinalize(tensorWith(w, {1, 2, 5, 5}, {50, 25, -5, 1}))); }},
        {"tensor.stridesRankMismatch", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendFinalize(tensorWith(w, {1, 2, 5, 5}, {25, 5, 1}))); }},
        {"tensor.byteSizeOverflowsSizeT", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             const int64_t big = int64_t(1) << 31;
             return st(hipdnnBackendFinalize(tensorWith(w, {big, big, 8}, {big * 8, 8, 1}))); }},
        {"tensor.spanOverflowsInt64", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendFinalize(tensorWith(w, {4, 4}, {std::numeric_limits<int64_t>::max() / 2, 1}))); }},
        {"createDescriptor.invalidType", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM, HIPDNN_STATUS_NOT_SUPPORTED}), [](BackendWorld& w) {
             return st(hipdnnBackendCreateDescriptor(static_cast<hipdnnBackendDescriptorType_t>(9999), w.slot<hipdnnBackendDescriptor_t>("d"))); }},
        {"finalize.twice", Expect::oneOf({HIPDNN_STATUS_NOT_INITIALIZED}), [](BackendWorld& w) {
             return st(hipdnnBackendFinalize(w.finalizedTensor())); }},
        // ---- graphs: cycles, corrupt wire format ---------------------------------------------------
        {"graph.twoNodeCycle", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             auto a = w.makeTensor(51, true), b = w.makeTensor(52, true);
             return st(finalizeGraph(w, {relu(w, a, b), relu(w, b, a)})); }},
        {"graph.selfLoop", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             auto a = w.makeTensor(53, true);
             return st(finalizeGraph(w, {relu(w, a, a)})); }},
        {"graph.tensorWrittenTwice", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             auto a = w.makeTensor(54, true), b = w.makeTensor(55, true), c = w.makeTensor(56, true);
             return st(finalizeGraph(w, {relu(w, a, c), relu(w, b, c)})); }},
        {"graph.duplicateUids", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             auto a = w.makeTensor(57, true), b = w.makeTensor(57, true);
             return st(finalizeGraph(w, {relu(w, a, b)})); }},
        {"graph.noOperations", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             auto g = w.make(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
             const hipdnnHandle_t h = w.handle();
             return st(setThenFinalize(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h)); }},
        {"deserialize.garbage", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             const uint8_t* bytes = w.input<uint8_t>({0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
             return st(hipdnnBackendCreateAndDeserializeGraph_ext(w.slot<hipdnnBackendDescriptor_t>("g"), bytes, 16)); }},
        {"deserialize.truncated", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendCreateAndDeserializeGraph_ext(w.slot<hipdnnBackendDescriptor_t>("g"), w.graphBytes(), w.graphByteCount() / 2)); }},
        {"deserialize.zeroSize", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnBackendCreateAndDeserializeGraph_ext(w.slot<hipdnnBackendDescriptor_t>("g"), w.graphBytes(), 0)); }},
        {"deserialize.tensorSizeOverflows", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             // A well-formed graph (the frontend builds and serializes it) whose input tensor has
             // 2^31 * 2^31 * 25 elements: more than int64 counts.
             using namespace hipdnn_frontend;
             const int64_t big = int64_t(1) << 31;
             graph::Graph g;
             g.set_io_data_type(DataType::FLOAT).set_compute_data_type(DataType::FLOAT);
             auto x = g.tensor(graph::TensorAttributes().set_uid(1).set_dim({big, big, 5, 5}));
             auto wt = g.tensor(graph::TensorAttributes().set_uid(2).set_dim({3, big, 3, 3}));
             auto y = g.conv_fprop(x, wt, graph::ConvFpropAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
             y->set_output(true).set_uid(3);
             std::vector<uint8_t> bytes;
             EXPECT_FALSE(g.validate().is_bad());
             EXPECT_FALSE(g.serialize(bytes).is_bad());
             Guarded& in = w.add(bytes.size());
             std::memcpy(in.data(), bytes.data(), bytes.size());
             w.remember(in);
             return st(hipdnnBackendCreateAndDeserializeGraph_ext(w.slot<hipdnnBackendDescriptor_t>("g"),
                                                                  static_cast<const uint8_t*>(in.data()), bytes.size())); }},
        {"serializedGraph.bufferTooSmall", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT}), [](BackendWorld& w) {
             auto* eight = static_cast<uint8_t*>(w.add(8).data());
             return st(hipdnnBackendGetSerializedBinaryGraph_ext(w.graph(), 8, w.slot<size_t>("n"), eight)); }},
        // ---- variant packs and execution ----------------------------------------------------------
        {"execute.unknownUid", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) { return st(executeWithPack(w, {1, 2, 3, 99})); }},
        {"execute.missingUid", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) { return st(executeWithPack(w, {1, 3})); }},
        {"variantPack.duplicateUid", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             auto pack = w.make(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
             void* ptrs[3] = {w.add(256).data(), w.add(256).data(), w.add(256).data()};
             EXPECT_EQ(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 3, w.input<int64_t>({1, 3, 3})), HIPDNN_STATUS_SUCCESS);
             return st(setThenFinalize(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 3, ptrs)); }},
        {"variantPack.pointerCountMismatch", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             auto pack = w.make(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
             void* ptrs[2] = {w.add(64).data(), w.add(64).data()};
             EXPECT_EQ(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 3, w.input<int64_t>({1, 2, 3})), HIPDNN_STATUS_SUCCESS);
             return st(setThenFinalize(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 2, ptrs)); }},
        {"variantPack.nullDataPointer", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             auto pack = w.make(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
             void* ptrs[3] = {w.add(256).data(), nullptr, w.add(512).data()};
             void* ws = w.add(static_cast<std::size_t>(w.workspaceBytes()) + 64).data();
             hipdnnStatus_t s = hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 3, w.input<int64_t>({1, 2, 3}));
             if(s == HIPDNN_STATUS_SUCCESS) s = hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws);
             if(s == HIPDNN_STATUS_SUCCESS) s = setThenFinalize(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 3, ptrs);
             return st(s == HIPDNN_STATUS_SUCCESS ? hipdnnBackendExecute(w.handle(), w.plan(), pack) : s); }},
        {"execute.workspaceNullWhenNeeded", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             // The plan of the world needs a workspace only on some engines: this case requires one.
             EXPECT_GT(w.workspaceBytes(), 0) << "the plan needs no workspace: this case tests nothing";
             return st(executeWithPack(w, {1, 2, 3}, false)); }},
        // ---- enums, indices and sizes of the _ext functions -------------------------------------
        {"setGlobalLogLevel.invalid", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld&) {
             return st(hipdnnBackendSetGlobalLogLevel_ext(static_cast<hipdnnSeverity_t>(42))); }},
        {"setPluginUnloadMode.invalid", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld&) {
             return st(hipdnnSetPluginUnloadMode_ext(static_cast<hipdnnPluginUnloadingMode_ext_t>(7))); }},
        {"setEnginePluginPaths.invalidMode", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM, HIPDNN_STATUS_NOT_SUPPORTED}), [](BackendWorld& w) {
             return st(hipdnnSetEnginePluginPaths_ext(1, w.pluginPaths(), static_cast<hipdnnPluginLoadingMode_ext_t>(9))); }},
        {"setEnginePluginPaths.whileHandleAlive", Expect::oneOf({HIPDNN_STATUS_NOT_SUPPORTED}), [](BackendWorld& w) {
             return st(hipdnnSetEnginePluginPaths_ext(1, w.pluginPaths(), HIPDNN_PLUGIN_LOADING_ADDITIVE)); }},
        {"setEnginePluginPaths.nullPathInList", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, HIPDNN_STATUS_NOT_SUPPORTED}), [](BackendWorld&) {
             const char* const paths[2] = {"/nonexistent", nullptr};
             return st(hipdnnSetEnginePluginPaths_ext(2, paths, HIPDNN_PLUGIN_LOADING_ADDITIVE)); }},
        {"setUserLogCallback.invalidLevel", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnSetUserLogCallback_ext(&BackendWorld::ignoreLog, static_cast<hipdnnSeverity_t>(42), HIPDNN_LOG_CALLBACK_SYNC, w.logUserHandle())); }},
        {"setUserLogCallback.invalidMode", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnSetUserLogCallback_ext(&BackendWorld::ignoreLog, HIPDNN_SEV_ERROR, static_cast<hipdnnLogCallbackMode_t>(5), w.logUserHandle())); }},
        {"setUserLogCallback.removeUnknown", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM}), [](BackendWorld& w) {
             return st(hipdnnSetUserLogCallback_ext(&BackendWorld::ignoreLog, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, w.logUserHandle())); }},
        {"engineInfo.indexOutOfRange", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND}), [](BackendWorld& w) {
             return st(hipdnnGetEngineInfo_ext(w.handle(), 1000, w.slot<int64_t>("id"), w.chars(), w.lengthSlot(w.stringBytes()),
                                               w.chars(), w.lengthSlot(w.stringBytes()), w.chars(), w.lengthSlot(w.stringBytes()),
                                               w.chars(), w.lengthSlot(w.stringBytes()))); }},
        {"engineInfo.nameBufferTooSmall", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT}), [](BackendWorld& w) {
             auto* two = static_cast<char*>(w.add(2).data());
             return st(hipdnnGetEngineInfo_ext(w.handle(), 0, w.slot<int64_t>("id"), two, w.lengthSlot(2),
                                               w.chars(), w.lengthSlot(w.stringBytes()), w.chars(), w.lengthSlot(w.stringBytes()),
                                               w.chars(), w.lengthSlot(w.stringBytes()))); }},
        {"loadedPluginPaths.stringsTooShort", Expect::oneOf({HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT}), [](BackendWorld& w) {
             Guarded& table = w.add(BackendWorld::kPathCount * sizeof(char*));
             auto** paths = static_cast<char**>(table.data());
             for(std::size_t i = 0; i < BackendWorld::kPathCount; ++i)
                 paths[i] = static_cast<char*>(w.add(2).data());
             return st(hipdnnGetLoadedEnginePluginPaths_ext(w.handle(), w.lengthSlot(BackendWorld::kPathCount), paths, w.lengthSlot(2))); }},
        {"errorString.unknownStatus", Expect::noStatus(), [](BackendWorld&) {
             const char* text = hipdnnGetErrorString(static_cast<hipdnnStatus_t>(999));
             return text != nullptr && std::string(text) == "HIPDNN_STATUS_UNKNOWN" ? kNoStatus : -2; }},
        {"lastErrorString.truncatedInsideTheBuffer", Expect::noStatus(), [](BackendWorld& w) {
             hipdnnBackendFinalize(nullptr); // leaves a message
             hipdnnGetLastErrorString(static_cast<char*>(w.add(4).data()), 4);
             return kNoStatus; }},
        {"lastErrorString.zeroSizeWritesNothing", Expect::noStatus(), [](BackendWorld& w) {
             hipdnnBackendFinalize(nullptr);
             auto& one = w.add(1);
             w.remember(one); // treated as an input: must stay unchanged
             hipdnnPeekLastErrorString_ext(static_cast<char*>(one.data()), 0);
             return kNoStatus; }},
    };
    return kCases;
}

} // namespace backend_bad_input
