// The routing policy (pure functions) over the whole matrix.
#include "routing.hpp"

#include <gtest/gtest.h>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace miopen::wrapper;

TEST(RoutingParseMode, DefaultAndSynonyms)
{
    std::vector<std::string> warnings;
    bool fromEnv = true;
    EXPECT_EQ(parseMode(nullptr, fromEnv, warnings), Mode::Disabled);
    EXPECT_FALSE(fromEnv);
    EXPECT_EQ(parseMode("", fromEnv, warnings), Mode::Disabled);
    EXPECT_FALSE(fromEnv);
    for(const char* on : {"enabled", "ENABLED", "Enable", "on", "1", "yes", "true"})
    {
        EXPECT_EQ(parseMode(on, fromEnv, warnings), Mode::Enabled) << on;
        EXPECT_TRUE(fromEnv);
    }
    for(const char* off : {"disabled", "Disable", "OFF", "0", "no", "false"})
    {
        EXPECT_EQ(parseMode(off, fromEnv, warnings), Mode::Disabled) << off;
        EXPECT_TRUE(fromEnv);
    }
    for(const char* verify : {"verify", "VERIFY", "Verify"})
    {
        EXPECT_EQ(parseMode(verify, fromEnv, warnings), Mode::Verify) << verify;
        EXPECT_TRUE(fromEnv);
    }
    EXPECT_TRUE(warnings.empty());
}

TEST(RoutingParseMode, UnknownValuesWarnAndStayDisabled)
{
    for(const char* bad : {"enabeld", "2", " enabled", "verify-later", "yes please"})
    {
        std::vector<std::string> warnings;
        bool fromEnv = true;
        EXPECT_EQ(parseMode(bad, fromEnv, warnings), Mode::Disabled) << bad;
        EXPECT_FALSE(fromEnv);
        ASSERT_EQ(warnings.size(), 1u) << bad;
        EXPECT_NE(warnings[0].find(bad), std::string::npos);
    }
}

const std::vector<std::string_view> kSet = {"miopenConvolutionForward", "miopenConvolutionBackwardData"};

TEST(RoutingParseOptOut, ListsStarAndUnknownNames)
{
    std::vector<std::string> warnings;
    auto o = parseOptOut(nullptr, kSet, warnings);
    EXPECT_FALSE(o.all);
    EXPECT_TRUE(o.entries.empty());
    o = parseOptOut(" miopenConvolutionForward , ,miopenConvolutionBackwardData", kSet, warnings);
    EXPECT_EQ(o.entries.size(), 2u);
    EXPECT_TRUE(warnings.empty());
    o = parseOptOut("miopenConvolutionForward,*", kSet, warnings);
    EXPECT_TRUE(o.all);
    EXPECT_TRUE(o.contains("miopenAnything"));
    o = parseOptOut("conv,miopenConvolutionForwardd", kSet, warnings);
    EXPECT_TRUE(o.entries.empty());
    EXPECT_EQ(warnings.size(), 2u);
}

TEST(RoutingResolve, WholeMatrix)
{
    OptOut none, fwdOut, all;
    fwdOut.entries = {"miopenConvolutionForward"};
    all.all        = true;
    struct Row
    {
        Mode mode;
        const char* entry;
        const OptOut* optOut;
        Route route;
        Reason reason;
    };
    const Row rows[] = {
        {Mode::Disabled, "miopenConvolutionForward", &none, Route::Private, Reason::ForwardingOff},
        {Mode::Disabled, "miopenCreate", &none, Route::Private, Reason::ForwardingOff},
        {Mode::Disabled, "miopenConvolutionForward", &all, Route::Private, Reason::ForwardingOff},
        {Mode::Enabled, "miopenCreate", &none, Route::Private, Reason::NotInForwardingSet},
        {Mode::Enabled, "miopenCreate", &all, Route::Private, Reason::NotInForwardingSet},
        {Mode::Enabled, "miopenConvolutionForward", &none, Route::HipDnn, Reason::InForwardingSet},
        {Mode::Enabled, "miopenConvolutionForward", &fwdOut, Route::Private, Reason::DisabledByEnv},
        {Mode::Enabled, "miopenConvolutionBackwardData", &fwdOut, Route::HipDnn, Reason::InForwardingSet},
        {Mode::Enabled, "miopenConvolutionBackwardData", &all, Route::Private, Reason::DisabledByEnv},
        {Mode::Verify, "miopenCreate", &none, Route::Private, Reason::NotInForwardingSet},
        {Mode::Verify, "miopenConvolutionForward", &none, Route::HipDnn, Reason::InForwardingSet},
        {Mode::Verify, "miopenConvolutionForward", &fwdOut, Route::Private, Reason::DisabledByEnv},
    };
    for(const auto& r : rows)
    {
        const Decision d = resolveRoute(r.mode, r.entry, *r.optOut, kSet);
        EXPECT_EQ(d.route, r.route) << r.entry << ' ' << modeName(r.mode);
        EXPECT_EQ(d.reason, r.reason) << r.entry << ' ' << modeName(r.mode) << ' ' << reasonName(d.reason);
    }
    // A MIOpen-only variable in effect keeps the set on Private, after the opt-out.
    const std::string_view var = "MIOPEN_DEBUG_CONV_WINOGRAD=0";
    EXPECT_EQ(resolveRoute(Mode::Enabled, "miopenConvolutionForward", none, kSet, var).reason, Reason::MiopenOnlyVariable);
    EXPECT_EQ(resolveRoute(Mode::Verify, "miopenConvolutionForward", none, kSet, var).route, Route::Private);
    EXPECT_EQ(resolveRoute(Mode::Enabled, "miopenConvolutionForward", fwdOut, kSet, var).reason, Reason::DisabledByEnv);
    EXPECT_EQ(resolveRoute(Mode::Disabled, "miopenConvolutionForward", none, kSet, var).reason, Reason::ForwardingOff);
    EXPECT_EQ(resolveRoute(Mode::Enabled, "miopenCreate", none, kSet, var).reason, Reason::NotInForwardingSet);
}

// The routing table is the one generator/policy.txt declares (the generator's forwarding_set.txt,
// one "family entry" line per forwarded entry point, in order).
std::vector<std::pair<std::string, std::string>> generatedSet()
{
    std::vector<std::pair<std::string, std::string>> rows;
    std::ifstream in(MIOPEN_FORWARDING_SET_TXT);
    std::string family, entry;
    while(in >> family >> entry)
        rows.emplace_back(family, entry);
    return rows;
}

TEST(RoutingForwardingSet, IsWhatThePolicyDeclares)
{
    const auto rows = generatedSet();
    ASSERT_FALSE(rows.empty()) << MIOPEN_FORWARDING_SET_TXT;
    std::vector<std::string_view> expected;
    std::vector<std::string> familyOrder;
    for(const auto& [family, entry] : rows)
    {
        expected.emplace_back(entry);
        EXPECT_EQ(familyOf(entry), family) << entry;
        EXPECT_TRUE(inForwardingSet(entry)) << entry;
        if(familyOrder.empty() || familyOrder.back() != family)
            familyOrder.push_back(family);
    }
    EXPECT_EQ(forwardingSet(), expected);
    for(const auto& family : familyOrder)
    {
        std::vector<std::string_view> members;
        for(const auto& [f, e] : rows)
            if(f == family)
                members.emplace_back(e);
        EXPECT_EQ(familyMembers(family), members) << family;
    }
    // The families the wrapper's tests and docs rely on, and what stays on Private.
    for(const char* family : {"convolution", "batchnorm", "fusion", "pooling", "softmax", "activation", "tensor"})
        EXPECT_FALSE(familyMembers(family).empty()) << family;
    EXPECT_TRUE(familyMembers("lrn").empty());
    EXPECT_TRUE(familyOf("miopenCreate").empty());
    EXPECT_TRUE(inForwardingSet("miopenConvolutionForward"));
    EXPECT_TRUE(inForwardingSet("miopenBatchNormalizationBackward_V2"));
    for(const char* stays : {"miopenConvolutionForwardBias", "miopenConvolutionBackwardBias",
                             "miopenFindConvolutionForwardAlgorithm", "miopenConvolutionForwardGetWorkSpaceSize",
                             "miopenCreate", "miopenDeriveBNTensorDescriptor", "miopenCompileFusionPlan",
                             "miopenLRNForward"})
        EXPECT_FALSE(inForwardingSet(stays)) << stays;
}

TEST(RoutingParseOptOut, FamilyNameBatchnorm)
{
    std::vector<std::string> warnings;
    const auto o = parseOptOut("batchnorm", forwardingSet(), warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_FALSE(o.all);
    for(auto e : familyMembers("batchnorm"))
        EXPECT_EQ(resolveRoute(Mode::Enabled, e, o, forwardingSet()).reason, Reason::DisabledByEnv) << e;
    for(auto e : familyMembers("convolution"))
        EXPECT_EQ(resolveRoute(Mode::Enabled, e, o, forwardingSet()).route, Route::HipDnn) << e;
    // Both families, and a family with an entry point of the other.
    const auto both = parseOptOut("convolution, batchnorm", forwardingSet(), warnings);
    EXPECT_TRUE(warnings.empty());
    for(auto e : forwardingSet())
    {
        const bool optedOut = familyOf(e) == "convolution" || familyOf(e) == "batchnorm";
        EXPECT_EQ(resolveRoute(Mode::Enabled, e, both, forwardingSet()).route, optedOut ? Route::Private : Route::HipDnn)
            << e;
    }
    const auto mixed = parseOptOut("convolution,miopenBatchNormalizationBackward", forwardingSet(), warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(resolveRoute(Mode::Enabled, "miopenBatchNormalizationBackward", mixed, forwardingSet()).route, Route::Private);
    EXPECT_EQ(resolveRoute(Mode::Enabled, "miopenBatchNormalizationBackward_V2", mixed, forwardingSet()).route,
              Route::HipDnn);
    // A build that forwards only convolutions: the family name has no member there, and no warning.
    const std::vector<std::string_view> convOnly(familyMembers("convolution"));
    const auto none = parseOptOut("batchnorm", convOnly, warnings);
    EXPECT_TRUE(none.entries.empty());
    // The convolution solver controls keep only the convolution family on Private.
    const std::string_view var = "MIOPEN_DEBUG_CONV_GEMM=0";
    const OptOut nothing;
    EXPECT_EQ(resolveRoute(Mode::Enabled, "miopenBatchNormalizationForwardTraining", nothing, forwardingSet(), var).route,
              Route::HipDnn);
    EXPECT_EQ(resolveRoute(Mode::Enabled, "miopenConvolutionForward", nothing, forwardingSet(), var).reason,
              Reason::MiopenOnlyVariable);
}

TEST(RoutingParseOptOut, FamilyNameConvolution)
{
    std::vector<std::string> warnings;
    const auto o = parseOptOut("convolution", forwardingSet(), warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_FALSE(o.all);
    for(auto e : familyMembers("convolution"))
    {
        EXPECT_TRUE(o.contains(e)) << e;
        EXPECT_EQ(resolveRoute(Mode::Enabled, e, o, forwardingSet()).reason, Reason::DisabledByEnv) << e;
    }
    for(auto e : familyMembers("batchnorm"))
        EXPECT_FALSE(o.contains(e)) << e;
    // A single entry point stays opted out alone; the others are forwarded.
    const auto one = parseOptOut(" miopenConvolutionBackwardData ,", forwardingSet(), warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(resolveRoute(Mode::Enabled, "miopenConvolutionBackwardData", one, forwardingSet()).route, Route::Private);
    EXPECT_EQ(resolveRoute(Mode::Enabled, "miopenConvolutionForward", one, forwardingSet()).route, Route::HipDnn);
    // Family names are exact: a prefix is an unknown name.
    parseOptOut("conv", forwardingSet(), warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("'conv'"), std::string::npos);
}

} // namespace
